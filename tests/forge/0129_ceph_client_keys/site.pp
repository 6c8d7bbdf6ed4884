# A Ceph client node: the cluster's configuration and keyrings for the
# admin and a Cinder client limited to its pools.
class { 'ceph':
  fsid     => '4b5c8c0a-ff60-454b-a1b4-9747aa737d19',
  mon_host => '192.0.2.41:6789,192.0.2.42:6789,192.0.2.43:6789',
}
ceph::key { 'client.admin':
  secret  => 'AQBMGHJTkC8HKhAAJ7NH255wYypgm1oVuV41MA==',
  cap_mon => 'allow *',
  cap_osd => 'allow *',
  cap_mds => 'allow',
}
ceph::key { 'client.mrtest-cinder':
  secret  => 'AQCztJdSyNb0NBAASA2yPZPuwXeIQnDJ9O8gVw==',
  cap_mon => 'profile rbd',
  cap_osd => 'profile rbd pool=volumes, profile rbd pool=images',
  user    => 'cinder',
  group   => 'cinder',
  mode    => '0640',
}
