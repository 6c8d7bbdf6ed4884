# Grafana from its apt repository (grafana) with grafana.ini settings and
# a Prometheus data source provisioned from a file.
class { 'grafana':
  cfg                      => {
    'server'   => { 'http_port' => 3000, 'root_url' => 'https://grafana.example.com/' },
    'security' => { 'admin_user' => 'admin', 'admin_password' => 'mrtest-admin' },
    'users'    => { 'allow_sign_up' => false },
  },
  provisioning_datasources => {
    'apiVersion'  => 1,
    'datasources' => [
      {
        'name'      => 'Prometheus',
        'type'      => 'prometheus',
        'access'    => 'proxy',
        'url'       => 'http://localhost:9090',
        'isDefault' => true,
      },
    ],
  },
}
