# A truststore holding the Puppet CA certificate, refreshed whenever the
# certificate changes (java_ks README, "ensure => latest" with trustcacerts).
file { '/etc/mrtest-activemq':
  ensure => directory,
  mode   => '0750',
}
java_ks { 'puppetca:truststore':
  ensure       => latest,
  certificate  => '/etc/puppet/ssl/certs/ca.pem',
  target       => '/etc/mrtest-activemq/broker.ts',
  password     => 'mrtest-changeit',
  trustcacerts => true,
}
