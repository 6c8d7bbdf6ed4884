# Filebeat sending to Logstash: a Java application log whose stack traces
# are joined into one event, tags and processors for every event.
class { 'filebeat':
  manage_repo => false,
  tags        => ['mrtest', 'production'],
  processors  => [
    { 'add_host_metadata' => { 'netinfo.enabled' => true } },
    { 'drop_fields' => { 'fields' => ['agent.ephemeral_id'] } },
  ],
  outputs     => {
    'logstash' => {
      'hosts'       => ['logstash.example.com:5044'],
      'loadbalance' => true,
    },
  },
}
filebeat::input { 'mrtest-app':
  paths     => ['/var/log/mrtest-app/*.log'],
  multiline => {
    'pattern' => '^[[:space:]]',
    'negate'  => false,
    'match'   => 'after',
  },
  fields    => { 'app' => 'mrtest-app' },
}
