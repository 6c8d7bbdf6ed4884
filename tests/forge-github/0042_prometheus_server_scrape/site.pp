# A Prometheus server through the main class (manage_prometheus_server),
# with global settings, scrape jobs and an alert rule group, run by systemd.
class { 'prometheus':
  manage_prometheus_server => true,
  init_style               => 'systemd',
  version                  => '2.53.1',
  global_config            => {
    'scrape_interval'     => '30s',
    'evaluation_interval' => '30s',
  },
  scrape_configs           => [
    {
      'job_name'       => 'prometheus',
      'static_configs' => [{ 'targets' => ['localhost:9090'] }],
    },
    {
      'job_name'       => 'node',
      'static_configs' => [{ 'targets' => ['192.0.2.11:9100', '192.0.2.12:9100'], 'labels' => { 'env' => 'test' } }],
    },
  ],
  alerts                   => {
    'groups' => [
      {
        'name'  => 'mrtest',
        'rules' => [
          {
            'alert'  => 'InstanceDown',
            'expr'   => 'up == 0',
            'for'    => '5m',
            'labels' => { 'severity' => 'page' },
          },
        ],
      },
    ],
  },
}
