# Concat fragments whose source an earlier resource of the run makes (as
# openvpn's client configurations take the keys easy-rsa has just made):
# Puppet reads the sources when the run reaches the `concat`, so the file
# is whole on the first run, and what subscribes to it is refreshed. A
# fragment with content only is there from the start.
exec { 'mrtest make the key':
  command => '/bin/sh -c "echo key-material > /tmp/mrtest-apply/late.key"',
  creates => '/tmp/mrtest-apply/late.key',
}
-> concat { '/tmp/mrtest-apply/client.conf':
  mode => '0600',
}
~> exec { 'mrtest-after-client':
  command     => '/bin/true',
  refreshonly => true,
}
concat::fragment { 'client head':
  target  => '/tmp/mrtest-apply/client.conf',
  content => "client\n",
  order   => '01',
}
concat::fragment { 'client key':
  target => '/tmp/mrtest-apply/client.conf',
  source => '/tmp/mrtest-apply/late.key',
  order  => '10',
}
