# A standalone ZooKeeper with its data on a dedicated directory, automatic
# purging of old snapshots and tighter limits.
class { 'zookeeper':
  datastore         => '/srv/mrtest-zookeeper',
  client_port       => 2181,
  init_limit        => 5,
  sync_limit        => 2,
  snap_retain_count => 5,
  purge_interval    => 24,
}
