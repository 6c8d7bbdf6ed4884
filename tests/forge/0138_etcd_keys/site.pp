# An etcd server on this node and keys stored in it with the module's
# etcd_key type.
class { 'etcd':
  listen_client_urls    => 'http://127.0.0.1:2379',
  advertise_client_urls => 'http://127.0.0.1:2379',
}
etcd_key { '/mrtest/config/database':
  value   => 'db.example.com',
  peers   => 'http://127.0.0.1:2379',
  require => Class['etcd'],
}
etcd_key { '/mrtest/config/replicas':
  value   => '3',
  peers   => 'http://127.0.0.1:2379',
  require => Class['etcd'],
}
