# squid configured entirely through the class's hashes, with an extra
# configuration section.
class { 'squid':
  http_ports            => { '8080' => { 'options' => 'intercept' } },
  acls                  => {
    'mrtest_office' => { 'type' => 'src', 'entries' => ['198.51.100.0/24'] },
  },
  http_access           => {
    'mrtest_office' => { 'action' => 'allow' },
    'all'           => { 'action' => 'deny', 'order' => '99' },
  },
  extra_config_sections => {
    'mrtest misc' => {
      'config_entries' => {
        'dns_nameservers' => ['192.0.2.53', '192.0.2.54'],
        'forwarded_for'   => 'delete',
      },
    },
  },
}
