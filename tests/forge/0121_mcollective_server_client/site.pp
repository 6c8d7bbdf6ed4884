# An MCollective server and client on one node, connected to ActiveMQ
# brokers over TLS and using SSL-signed requests, with a plugin and a
# server setting.
class { 'mcollective':
  client              => true,
  server              => true,
  connector           => 'activemq',
  securityprovider    => 'ssl',
  middleware_hosts    => ['broker1.example.com', 'broker2.example.com'],
  middleware_ssl      => true,
  middleware_user     => 'mcollective',
  middleware_password => 'mrtest-broker-secret',
  ssl_server_public   => 'puppet:///modules/mrtest/server_public.pem',
  ssl_server_private  => 'puppet:///modules/mrtest/server_private.pem',
  ssl_ca_cert         => 'puppet:///modules/mrtest/ca.pem',
}
mcollective::plugin { 'puppet':
  package => true,
}
mcollective::server::setting { 'mrtest-loglevel':
  setting => 'loglevel',
  value   => 'info',
}
