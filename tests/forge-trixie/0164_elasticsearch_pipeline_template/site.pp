# An ingest pipeline and a legacy index template given as hashes, plus a
# template given as a JSON string, managed through the REST API.
class { 'elasticsearch':
  manage_repo => false,
}
elasticsearch::pipeline { 'mrtest-addfoo':
  content => {
    'description' => 'Add the foo field',
    'processors'  => [{
      'set' => {
        'field' => 'foo',
        'value' => 'bar',
      },
    }],
  },
}
elasticsearch::template { 'mrtest-logs':
  content => {
    'index_patterns' => ['mrtest-logs-*'],
    'settings'       => {
      'number_of_replicas' => 0,
      'number_of_shards'   => 1,
    },
  },
}
elasticsearch::template { 'mrtest-metrics':
  content => '{"index_patterns": ["mrtest-metrics-*"], "settings": {"number_of_replicas": 1}}',
}
