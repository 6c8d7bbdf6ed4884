# Real modules' ParsedFile providers (mailalias's aliases, postgresql's
# postgresql_conf) add records to files that exist and to new ones.
file { '/tmp/mrtest-rbtypes': ensure => directory }
file { '/tmp/mrtest-rbtypes/aliases': ensure => file, content => "# scratch\npostmaster: root\n" }
mailalias { 'mrtest-web':
  recipient => ['root', 'ops@example.com'],
  target    => '/tmp/mrtest-rbtypes/aliases',
  require   => File['/tmp/mrtest-rbtypes/aliases'],
}
mailalias { 'postmaster':
  recipient => 'admin',
  target    => '/tmp/mrtest-rbtypes/aliases',
  require   => File['/tmp/mrtest-rbtypes/aliases'],
}
postgresql_conf { 'max_connections':
  value   => '100',
  target  => '/tmp/mrtest-rbtypes/postgresql.conf',
  require => File['/tmp/mrtest-rbtypes'],
}
postgresql_conf { 'listen_addresses':
  value   => '*',
  target  => '/tmp/mrtest-rbtypes/postgresql.conf',
  require => File['/tmp/mrtest-rbtypes'],
}
