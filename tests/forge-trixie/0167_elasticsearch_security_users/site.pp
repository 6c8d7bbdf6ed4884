# File-realm security: a role with index privileges, users given a plain or
# a bcrypt-hashed password, and a secure setting in the keystore.
class { 'elasticsearch':
  manage_repo   => false,
  config        => {
    'xpack.security.enabled' => true,
  },
  secrets       => {
    'bootstrap.password' => 'mrtest-bootstrap',
  },
  purge_secrets => true,
}
elasticsearch::role { 'mrtest_logstash_writer':
  privileges => {
    'cluster' => ['manage_index_templates', 'monitor'],
    'indices' => [{
      'names'      => ['mrtest-logs-*'],
      'privileges' => ['write', 'create_index'],
    }],
  },
  mappings   => ['cn=logstash,ou=services,dc=example,dc=com'],
}
elasticsearch::user { 'mrtest-logstash':
  password => 'mrtest-logstash-pw',
  roles    => ['mrtest_logstash_writer'],
}
elasticsearch::user { 'mrtest-kibana':
  password => '$2a$10$IZMnq6DF4DtQ9c4sVovgDubCbdeH62XncmcyD1sZ4WClzFuAdqspy',
  roles    => ['kibana_system'],
}
