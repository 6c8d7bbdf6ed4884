# A ZooKeeper node of a three-server ensemble installed from Debian's
# package.
class { 'zookeeper':
  id        => '1',
  servers   => ['192.0.2.11', '192.0.2.12', '192.0.2.13'],
  client_ip => $facts['networking']['ip'],
}
