file { '/tmp/mrtest-ft':
  ensure  => directory,
  recurse => true,
  purge   => true,
  force   => true,
  owner   => 0,
  group   => 'root',
  mode    => '2775',
  ignore  => ['*.tmp', '.git'],
  backup  => false,
}
file { '/tmp/mrtest-ft/link':
  ensure => link,
  target => '/tmp/mrtest-ft',
}
file { '/tmp/mrtest-ft/content':
  ensure    => file,
  content   => "a\tb\n",
  replace   => false,
  show_diff => false,
  checksum  => 'sha256',
}
