# openstacklib's building blocks on their own: a MySQL database with its
# user and grants for a service, a RabbitMQ user on a vhost, a policy file
# and a clouds.yaml for the openstack client.
class { 'mysql::server': }
openstacklib::db::mysql { 'mrtest_app':
  password      => 'mrtest-app-db',
  allowed_hosts => ['%', 'controller.example.com'],
}
class { 'rabbitmq': }
openstacklib::messaging::rabbitmq { 'mrtest-app':
  userid       => 'mrtest-app',
  password     => 'mrtest-rabbit',
  virtual_host => '/mrtest',
  manage_vhost => true,
}
openstacklib::policy { '/etc/mrtest/policy.yaml':
  policies    => {
    'mrtest-admin' => {
      'key'   => 'context_is_admin',
      'value' => 'role:admin',
    },
  },
  file_format => 'yaml',
}
openstacklib::clouds { '/root/.config/openstack/clouds.yaml':
  username     => 'admin',
  password     => 'mrtest-admin-secret',
  auth_url     => 'http://mrtest.example.com:5000/v3',
  project_name => 'admin',
  region_name  => 'RegionOne',
}
