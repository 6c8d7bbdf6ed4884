# An etcd member of a static three-node cluster, listening for clients and
# peers on the node's address.
class { 'etcd':
  etcd_name                   => 'mrtest',
  listen_client_urls          => 'http://0.0.0.0:2379',
  advertise_client_urls       => "http://${facts['networking']['fqdn']}:2379",
  listen_peer_urls            => 'http://0.0.0.0:2380',
  initial_advertise_peer_urls => "http://${facts['networking']['fqdn']}:2380",
  initial_cluster             => [
    'mrtest=http://mrtest.example.com:2380',
    'etcd2=http://etcd2.example.com:2380',
    'etcd3=http://etcd3.example.com:2380',
  ],
  initial_cluster_state       => 'new',
}
