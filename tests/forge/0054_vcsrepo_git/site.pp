# Git checkouts: a branch, a revision and a bare repository.
vcsrepo { '/path/to/repo':
  ensure   => present,
  provider => git,
  source   => 'git://example.com/repo.git',
  revision => 'development',
}
vcsrepo { '/path/to/tagged':
  ensure   => latest,
  provider => git,
  source   => 'https://example.com/repo.git',
  revision => 'v1.2.3',
  depth    => 1,
  user     => 'deploy',
}
vcsrepo { '/path/to/bare':
  ensure   => bare,
  provider => git,
}
