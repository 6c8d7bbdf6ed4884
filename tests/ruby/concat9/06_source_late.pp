# A fragment whose source an earlier resource of the run makes: the
# module's `eval_generate` reads it when the run reaches the concat, so
# the file is whole on the first run and its subscriber is refreshed.
exec { 'mrtest make the key':
  command => '/bin/sh -c "echo key-material > /tmp/mrtest-rbtypes/late.key"',
  creates => '/tmp/mrtest-rbtypes/late.key',
}
-> concat { '/tmp/mrtest-rbtypes/client.conf': mode => '0600', create_empty_file => true }
~> exec { 'mrtest-after-client':
  command     => '/bin/true',
  refreshonly => true,
}
concat::fragment { 'client head':
  target  => '/tmp/mrtest-rbtypes/client.conf',
  content => "client\n",
  order   => '01',
}
concat::fragment { 'client key':
  target => '/tmp/mrtest-rbtypes/client.conf',
  source => '/tmp/mrtest-rbtypes/late.key',
  order  => '10',
}
