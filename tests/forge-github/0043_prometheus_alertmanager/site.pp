# An Alertmanager (prometheus::alertmanager) routing to an email receiver, the
# init style given by the prometheus class.
class { 'prometheus':
  init_style => 'systemd',
}
class { 'prometheus::alertmanager':
  version   => '0.27.0',
  global    => {
    'smtp_smarthost' => 'localhost:25',
    'smtp_from'      => 'alertmanager@example.com',
  },
  route     => {
    'group_by'        => ['alertname'],
    'group_wait'      => '30s',
    'group_interval'  => '5m',
    'repeat_interval' => '3h',
    'receiver'        => 'ops',
  },
  receivers => [
    { 'name' => 'ops', 'email_configs' => [{ 'to' => 'ops@example.com' }] },
  ],
}
