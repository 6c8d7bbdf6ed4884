# Manila shared file systems: API, scheduler and a share service with an
# LVM backend exporting NFS shares.
class { 'manila::db':
  database_connection => 'mysql+pymysql://manila:mrtest-manila-db@127.0.0.1/manila?charset=utf8',
}
class { 'manila':
  default_transport_url => 'rabbit://manila:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'manila::keystone::authtoken':
  password => 'mrtest-manila-keystone',
}
include manila::api
include manila::scheduler
include manila::share
manila::backend::lvm { 'mrtest-lvm':
  lvm_share_export_ips => '192.0.2.40',
}
class { 'manila::backends':
  enabled_share_backends => ['mrtest-lvm'],
}
