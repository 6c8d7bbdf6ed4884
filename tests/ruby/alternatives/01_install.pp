# An alternative with two choices, made with the real update-alternatives,
# then chosen through Debian's alternatives module.
$install = 'update-alternatives --install /tmp/mrtest-rbtypes/mrtest-alt mrtest-alt'
file { '/tmp/mrtest-rbtypes': ensure => directory }
exec { 'first choice':
  command  => "${install} /bin/true 20",
  path     => ['/usr/sbin', '/usr/bin', '/sbin', '/bin'],
  provider => shell,
  unless   => 'update-alternatives --list mrtest-alt | grep -qx /bin/true',
  require  => File['/tmp/mrtest-rbtypes'],
}
exec { 'second choice':
  command  => "${install} /bin/false 10",
  path     => ['/usr/sbin', '/usr/bin', '/sbin', '/bin'],
  provider => shell,
  unless   => 'update-alternatives --list mrtest-alt | grep -qx /bin/false',
  require  => Exec['first choice'],
}
alternatives { 'mrtest-alt':
  path    => '/bin/true',
  require => Exec['second choice'],
}
