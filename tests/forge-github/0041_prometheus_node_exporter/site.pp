# The Prometheus node exporter (prometheus::node_exporter) from a release
# tarball, with collectors enabled and disabled. The prometheus class
# gives the init style, which otherwise comes from stdlib's service_provider
# fact (not among the fixed facts).
class { 'prometheus':
  init_style => 'systemd',
}
class { 'prometheus::node_exporter':
  version            => '1.8.2',
  collectors_enable  => ['systemd', 'processes'],
  collectors_disable => ['wifi'],
}
