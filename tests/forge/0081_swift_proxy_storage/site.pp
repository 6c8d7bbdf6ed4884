# An all-in-one Swift object store: the proxy with Keystone auth and
# memcache, storage servers for accounts, containers and objects on a
# device already mounted under /srv/node, and the three rings.
class { 'swift':
  swift_hash_path_suffix => 'mrtest-swift-suffix',
}
class { 'swift::proxy':
  proxy_local_net_ip => '127.0.0.1',
  pipeline           => ['catch_errors', 'healthcheck', 'cache', 'authtoken', 'keystone', 'proxy-server'],
  account_autocreate => true,
}
include swift::proxy::catch_errors
include swift::proxy::healthcheck
# The cache middleware orders itself after the memcached class.
include memcached
class { 'swift::proxy::cache':
  memcache_servers => ['127.0.0.1:11211'],
}
class { 'swift::proxy::authtoken':
  password => 'mrtest-swift-keystone',
}
class { 'swift::proxy::keystone':
  operator_roles => ['admin', 'member'],
}
class { 'swift::storage::all':
  storage_local_net_ip => '127.0.0.1',
  mount_check          => false,
}
class { 'swift::ringbuilder':
  part_power     => 10,
  replicas       => 1,
  min_part_hours => 1,
}
ring_object_device { '127.0.0.1:6000/1':
  zone   => 1,
  weight => 1,
}
ring_container_device { '127.0.0.1:6001/1':
  zone   => 1,
  weight => 1,
}
ring_account_device { '127.0.0.1:6002/1':
  zone   => 1,
  weight => 1,
}
