# The etcd discovery service answering for a public prefix, backed by a
# local etcd.
class { 'etcddiscovery':
  prefix_url          => 'https://discovery.example.com',
  web_service_address => ':8087',
  endpoint_location   => 'http://127.0.0.1:2379',
}
