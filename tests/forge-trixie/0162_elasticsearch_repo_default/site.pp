# Elasticsearch 8 from Elastic's APT repository (elastic_stack::repo), a
# pinned version, a named single-node cluster and the JVM heap size.
class { 'elastic_stack::repo':
  version      => 8,
  repo_key_url => 'https://artifacts.elastic.co/GPG-KEY-elasticsearch',
  repo_key_id  => '46095ACC8548582C1A2699A9D27D666CD88E42B4',
}
class { 'elasticsearch':
  version     => '8.11.3',
  config      => {
    'cluster.name'           => 'mrtest-es',
    'node.name'              => 'mrtest-es-01',
    'network.host'           => '127.0.0.1',
    'discovery.type'         => 'single-node',
    'xpack.security.enabled' => false,
  },
  jvm_options => ['-Xms1g', '-Xmx1g'],
}
