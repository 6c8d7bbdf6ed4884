# Checksums of configuration content with stdlib::sha256 and stdlib::crc32,
# a dependency named by a string turned into a resource with
# stdlib::str2resource, and stdlib::extname / stdlib::xml_encode.
$config = "listen 8080\nworkers 4\n"
$config_file = '/etc/mrtest-app/app.conf'

file { '/etc/mrtest-app':
  ensure => directory,
}
file { $config_file:
  ensure  => file,
  content => $config,
}
$dependency = 'File[/etc/mrtest-app/app.conf]'
exec { 'mrtest-app reload':
  command     => '/usr/bin/systemctl reload mrtest-app',
  refreshonly => true,
  subscribe   => stdlib::str2resource($dependency),
}
file { '/etc/mrtest-app/app.conf.sums':
  ensure  => file,
  content => "sha256 ${stdlib::sha256($config)}\ncrc32 ${stdlib::crc32($config)}\next ${stdlib::extname($config_file)}\n",
}
file { '/etc/mrtest-app/motd.xml':
  ensure  => file,
  content => "<motd title=\"${stdlib::xml_encode('Tom & \"Jerry\"', 'attr')}\">${stdlib::xml_encode('a < b & c > d')}</motd>\n",
}
