# Pieces of OCI, Debian's OpenStack cluster installer, used on their own:
# its sysctl tuning for large neighbour tables and the etcd discovery
# service it deploys.
oci::sysctl { 'mrtest': }
class { 'oci::etcddiscovery':
  prefix_url             => 'https://discovery.example.com',
  etcd_endpoint_location => 'http://127.0.0.1:2379',
}
