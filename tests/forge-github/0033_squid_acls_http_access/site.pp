# A squid proxy (squid) on port 3128 with ACLs, access rules, a disk cache
# and refresh patterns, each its own defined type.
class { 'squid':
  cache_mem        => '256 MB',
  visible_hostname  => 'proxy.example.com',
}
squid::http_port { '3128': }
squid::acl { 'mrtest_lan':
  type    => 'src',
  entries => ['192.168.0.0/16', '10.0.0.0/8'],
}
squid::acl { 'SSL_ports':
  type    => 'port',
  entries => ['443'],
}
squid::http_access { 'mrtest_lan':
  action => 'allow',
}
squid::http_access { 'all':
  action => 'deny',
  order  => '99',
}
squid::cache_dir { '/var/spool/squid':
  type    => 'ufs',
  options => '10000 16 256',
}
squid::refresh_pattern { '^ftp:':
  min     => 1440,
  max     => 10080,
  percent => 20,
}
