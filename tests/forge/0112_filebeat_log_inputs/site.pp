# Filebeat shipping system and web server logs to Elasticsearch, without
# the Elastic repository (the package comes from a local mirror).
class { 'filebeat':
  manage_repo => false,
  outputs     => {
    'elasticsearch' => {
      'hosts' => ['http://es1.example.com:9200', 'http://es2.example.com:9200'],
      'index' => 'mrtest-%{+yyyy.MM.dd}',
    },
  },
}
filebeat::input { 'syslogs':
  paths    => ['/var/log/syslog', '/var/log/auth.log'],
  doc_type => 'syslog-beat',
}
filebeat::input { 'apache':
  paths  => ['/var/log/apache2/*.log'],
  fields => { 'service' => 'apache' },
}
