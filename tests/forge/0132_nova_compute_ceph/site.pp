# A Nova compute node keeping instance disks in a Ceph RBD pool, with the
# libvirt secret holding the Ceph client key.
class { 'nova':
  default_transport_url => 'rabbit://nova:mrtest-rabbit@controller.example.com:5672/',
}
class { 'nova::compute':
  vncserver_proxyclient_address => '192.0.2.10',
}
class { 'nova::compute::libvirt':
  virt_type => 'kvm',
}
class { 'nova::compute::rbd':
  libvirt_rbd_user        => 'nova',
  libvirt_rbd_secret_uuid => '457eb676-33da-42ec-9a8c-9293d545c337',
  libvirt_rbd_secret_key  => 'AQBMGHJTkC8HKhAAJ7NH255wYypgm1oVuV41MA==',
  libvirt_images_rbd_pool => 'vms',
  rbd_keyring             => 'client.nova',
}
