# openstack_extras: an openrc with the admin credentials for the client,
# and the Debian repository of OpenStack backports.
class { 'openstack_extras::auth_file':
  password     => 'mrtest-admin-secret',
  auth_url     => 'http://mrtest.example.com:5000/v3/',
  project_name => 'admin',
}
class { 'openstack_extras::repo::debian::debian':
  release     => 'zed',
  use_extrepo => false,
}
