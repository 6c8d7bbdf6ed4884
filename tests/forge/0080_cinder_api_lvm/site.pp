# A Cinder block storage controller with the API and scheduler, plus a
# volume service exporting LVM volumes over iSCSI as the only backend.
class { 'cinder::db':
  database_connection => 'mysql+pymysql://cinder:mrtest-cinder-db@127.0.0.1/cinder?charset=utf8',
}
class { 'cinder':
  default_transport_url => 'rabbit://cinder:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'cinder::keystone::authtoken':
  password => 'mrtest-cinder-keystone',
}
class { 'cinder::api':
  default_volume_type => 'lvm-1',
}
include cinder::scheduler
include cinder::volume
cinder::backend::iscsi { 'lvm-1':
  target_ip_address => '192.0.2.30',
  volume_group      => 'cinder-volumes',
}
class { 'cinder::backends':
  enabled_backends => ['lvm-1'],
}
