# A server keystore holding the host's key and certificate plus a separate
# intermediate chain, recreated if the password no longer opens it; the
# composite title gives the alias and the keystore file.
java_ks { 'mrtest.example.com:/etc/mrtest-activemq/broker.ks':
  ensure              => latest,
  certificate         => '/etc/puppet/ssl/certs/mrtest.example.com.pem',
  private_key         => '/etc/puppet/ssl/private_keys/mrtest.example.com.pem',
  chain               => '/etc/ssl/certs/mrtest-intermediate.pem',
  password            => 'mrtest-changeit',
  destkeypass         => 'mrtest-keypass',
  password_fail_reset => true,
}
java_ks { 'mrtest-jceks:/etc/mrtest-activemq/broker.jceks':
  ensure      => present,
  certificate => '/etc/puppet/ssl/certs/mrtest.example.com.pem',
  private_key => '/etc/puppet/ssl/private_keys/mrtest.example.com.pem',
  storetype   => 'jceks',
  password    => 'mrtest-changeit',
}
