# Files, a link, a removal with backup, and refresh through an exec.
file { '/tmp/mrtest-apply': ensure => directory, mode => '0755' }
file { '/tmp/mrtest-apply/config':
  ensure  => file,
  content => "port = 8080\n",
  mode    => '0640',
}
file { '/tmp/mrtest-apply/current': ensure => link, target => '/tmp/mrtest-apply/config' }
file { '/tmp/mrtest-apply/old': ensure => absent }
exec { 'mrtest-apply-reload':
  command     => '/bin/sh -c "echo reloaded > /tmp/mrtest-apply/reloaded"',
  refreshonly => true,
  subscribe   => File['/tmp/mrtest-apply/config'],
}
exec { '/bin/touch /tmp/mrtest-apply/made':
  creates => '/tmp/mrtest-apply/made',
  require => File['/tmp/mrtest-apply'],
}
