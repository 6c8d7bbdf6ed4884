# Composable templates: an index lifecycle policy, a component template
# using it and an index template built from that component.
class { 'elasticsearch':
  manage_repo => false,
}
elasticsearch::ilm_policy { 'mrtest-rollover':
  content => {
    'policy' => {
      'phases' => {
        'hot'    => {
          'actions' => {
            'rollover' => { 'max_size' => '25gb', 'max_age' => '7d' },
          },
        },
        'delete' => {
          'min_age' => '30d',
          'actions' => { 'delete' => {} },
        },
      },
    },
  },
}
elasticsearch::component_template { 'mrtest-settings':
  content => {
    'template' => {
      'settings' => {
        'index.lifecycle.name' => 'mrtest-rollover',
        'number_of_shards'     => 1,
      },
    },
  },
}
elasticsearch::index_template { 'mrtest-app-logs':
  content => {
    'index_patterns' => ['mrtest-app-*'],
    'composed_of'    => ['mrtest-settings'],
    'priority'       => 200,
  },
}
