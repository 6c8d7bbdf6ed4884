# A file built from fragments.
concat { '/etc/motd':
  owner => 'root',
  group => 'root',
  mode  => '0644',
}
concat::fragment { 'motd_header':
  target  => '/etc/motd',
  content => "Welcome to ${facts['networking']['fqdn']}\n",
  order   => '01',
}
concat::fragment { 'motd_local':
  target  => '/etc/motd',
  content => "Managed by configuration management\n",
  order   => '15',
}
