# Keystone's own resource types: a domain, a project, a user with a role
# on it, and a service with its public endpoint.
keystone_domain { 'mrtest-domain':
  ensure      => present,
  enabled     => true,
  description => 'Domain of the test users',
}
keystone_tenant { 'mrtest-project':
  ensure      => present,
  enabled     => true,
  domain      => 'mrtest-domain',
  description => 'Project of the test users',
}
keystone_user { 'mrtest-alice':
  ensure   => present,
  enabled  => true,
  domain   => 'mrtest-domain',
  email    => 'alice@example.com',
  password => 'mrtest-alice-password',
}
keystone_role { 'mrtest-member':
  ensure => present,
}
keystone_user_role { 'mrtest-alice::mrtest-domain@mrtest-project::mrtest-domain':
  ensure => present,
  roles  => ['mrtest-member'],
}
keystone::resource::service_identity { 'mrtest-service':
  service_type        => 'mrtest',
  service_description => 'Test service',
  password            => 'mrtest-service-password',
  public_url          => 'http://mrtest.example.com:9999',
  internal_url        => 'http://mrtest.example.com:9999',
  admin_url           => 'http://mrtest.example.com:9999',
}
