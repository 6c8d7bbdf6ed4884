# A MariaDB Galera cluster of three servers: this node joins it, another
# one being the master that bootstraps it, with the clustercheck status
# service.
# stdlib's root_home fact, which names root's .my.cnf, is not among the
# fixed facts: it is set at top scope, as an agent reports it.
$root_home = '/root'
class { 'galera':
  galera_servers     => ['192.0.2.21', '192.0.2.22', '192.0.2.23'],
  galera_master      => 'db1.example.com',
  local_ip           => '192.0.2.22',
  bind_address       => '192.0.2.22',
  vendor_type        => 'mariadb',
  root_password      => 'mrtest-root-db',
  status_password    => 'mrtest-status-db',
  configure_repo     => false,
  configure_firewall => false,
}
