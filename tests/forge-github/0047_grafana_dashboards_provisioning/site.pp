# Grafana from the distribution's repository (no package repository
# managed), with database and log settings in grafana.ini and dashboards
# provisioned from a directory. (An `ldap_cfg` would need Ruby's toml gem
# where the catalog is compiled.)
class { 'grafana':
  manage_package_repo     => false,
  cfg                     => {
    'database'  => { 'type' => 'sqlite3', 'path' => 'grafana.db' },
    'log'       => { 'mode' => 'console file', 'level' => 'warn' },
    'analytics' => { 'reporting_enabled' => false },
  },
  provisioning_dashboards => {
    'apiVersion' => 1,
    'providers'  => [
      {
        'name'    => 'default',
        'orgId'   => 1,
        'folder'  => '',
        'type'    => 'file',
        'options' => { 'path' => '/var/lib/grafana/dashboards' },
      },
    ],
  },
}
