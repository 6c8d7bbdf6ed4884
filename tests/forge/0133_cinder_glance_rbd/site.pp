# Cinder volumes and Glance images both stored in Ceph: an RBD volume
# backend and an RBD image store.
class { 'cinder':
  default_transport_url => 'rabbit://cinder:mrtest-rabbit@127.0.0.1:5672/',
}
include cinder::volume
cinder::backend::rbd { 'ceph-volumes':
  rbd_pool        => 'volumes',
  rbd_user        => 'cinder',
  rbd_secret_uuid => '457eb676-33da-42ec-9a8c-9293d545c337',
}
class { 'cinder::backends':
  enabled_backends => ['ceph-volumes'],
}
class { 'glance::api::authtoken':
  password => 'mrtest-glance-keystone',
}
class { 'glance::api':
  enabled_backends => ['ceph:rbd'],
  default_backend  => 'ceph',
}
glance::backend::multistore::rbd { 'ceph':
  rbd_store_user => 'glance',
  rbd_store_pool => 'images',
}
