# Keystore entries given as data to java_ks::config (as from Hiera): a
# PKCS#12 bundle imported into a JKS store and an entry being removed.
class { 'java_ks::config':
  params => {
    'mrtest-app:/srv/mrtest-app/keystore.jks' => {
      'ensure'          => 'latest',
      'certificate'     => '/srv/mrtest-app/tls/app.p12',
      'storetype'       => 'pkcs12',
      'source_password' => 'mrtest-p12pass',
      'source_alias'    => '1',
      'password'        => 'mrtest-changeit',
    },
    'mrtest-old:/srv/mrtest-app/keystore.jks' => {
      'ensure'   => 'absent',
      'password' => 'mrtest-changeit',
    },
  },
}
