# Mail aliases.
mailalias { 'postmaster':
  ensure    => present,
  recipient => 'root',
}
mailalias { 'webmaster':
  recipient => ['alice', 'bob'],
  target    => '/etc/aliases',
}
