# Only Elastic's package repository: the OSS 7.x packages, pinned above the
# distribution's with an APT priority (for Kibana, Logstash or Beats).
class { 'elastic_stack::repo':
  version      => 7,
  oss          => true,
  priority     => 1001,
  repo_key_url => 'https://artifacts.elastic.co/GPG-KEY-elasticsearch',
  repo_key_id  => '46095ACC8548582C1A2699A9D27D666CD88E42B4',
}
package { 'logstash-oss':
  ensure  => installed,
  require => Class['elastic_stack::repo'],
}
