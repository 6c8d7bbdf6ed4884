# theforeman/puppet managing only the agent (no server): puppet.conf with
# the server name, environment and run interval, run as the service.
class { 'puppet':
  server                => false,
  agent                 => true,
  agent_server_hostname => 'puppet.example.com',
  environment           => 'production',
  runmode               => 'service',
  runinterval           => 3600,
  splay                 => true,
  show_diff             => true,
  usecacheonfailure     => false,
}
