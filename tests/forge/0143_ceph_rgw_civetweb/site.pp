# A Ceph RADOS gateway serving S3 and Swift with its embedded web server,
# on a node holding the cluster's configuration and the gateway's key.
class { 'ceph':
  fsid     => '4b5c8c0a-ff60-454b-a1b4-9747aa737d19',
  mon_host => '192.0.2.41:6789',
}
ceph::key { 'client.radosgw.gateway':
  secret  => 'AQCztJdSyNb0NBAASA2yPZPuwXeIQnDJ9O8gVw==',
  cap_mon => 'allow rwx',
  cap_osd => 'allow rwx',
  user    => 'ceph',
  group   => 'ceph',
}
ceph::rgw { 'radosgw.gateway':
  rgw_port      => 8080,
  rgw_dns_name  => 's3.example.com',
  frontend_type => 'civetweb',
  rgw_frontends => 'civetweb port=8080',
}
