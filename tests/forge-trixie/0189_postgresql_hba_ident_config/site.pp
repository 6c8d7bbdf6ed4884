# A server listening on the network: access rules for an application subnet
# and certificate-mapped replication, a pg_ident map, and postgresql.conf
# settings through config_entry.
class { 'postgresql::globals':
  manage_package_repo => false,
}
class { 'postgresql::server':
  listen_addresses           => '*',
  ip_mask_deny_postgres_user => '0.0.0.0/32',
  ip_mask_allow_all_users    => '127.0.0.1/32',
  ipv4acls                   => ['hostssl all mrtest_admin 192.0.2.0/24 cert'],
  postgres_password          => 'mrtest-postgres-pw',
}
postgresql::server::pg_hba_rule { 'allow application network to access app database':
  description => 'Open up PostgreSQL for access from 192.0.2.0/24',
  type        => 'host',
  database    => 'mrtest_app',
  user        => 'mrtest_app',
  address     => '192.0.2.0/24',
  auth_method => 'scram-sha-256',
  order       => 120,
}
postgresql::server::pg_hba_rule { 'replication by certificate':
  type        => 'hostssl',
  database    => 'replication',
  user        => 'replication',
  address     => '198.51.100.0/24',
  auth_method => 'cert',
  auth_option => 'map=sslrepli',
}
postgresql::server::pg_ident_rule { 'Map the SSL certificate of the backup server as a replication user':
  map_name          => 'sslrepli',
  system_username   => 'repli1.example.com',
  database_username => 'replication',
}
postgresql::server::config_entry { 'max_connections':
  value => '200',
}
postgresql::server::config_entry { 'shared_buffers':
  value   => '512MB',
  comment => 'a quarter of the memory',
}
postgresql::server::config_entry { 'log_min_duration_statement':
  value => '250ms',
}
postgresql::server::config_entry { 'shared_preload_libraries':
  value => ['pg_stat_statements'],
}
