# A staging directory (archive::staging) and a Kafka release unpacked with a
# custom extract command that strips the top directory, downloaded by wget.
class { 'archive::staging':
  path => '/srv/mrtest-staging',
  mode => '0755',
}
package { 'wget':
  ensure => present,
}
Archive {
  provider => 'wget',
  require  => Package['wget'],
}
file { '/opt/mrtest-kafka':
  ensure => directory,
}
archive { '/srv/mrtest-staging/kafka_2.13-3.6.1.tgz':
  ensure          => present,
  source          => 'https://archive.apache.org/dist/kafka/3.6.1/kafka_2.13-3.6.1.tgz',
  extract         => true,
  extract_command => 'tar xfz %s --strip-components=1',
  extract_path    => '/opt/mrtest-kafka',
  cleanup         => true,
  creates         => '/opt/mrtest-kafka/config',
  require         => File['/opt/mrtest-kafka'],
}
