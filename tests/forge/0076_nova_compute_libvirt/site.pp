# A Nova compute node running KVM guests through libvirt, with a noVNC
# console proxied by the controller.
class { 'nova':
  default_transport_url => 'rabbit://nova:mrtest-rabbit@controller.example.com:5672/',
}
class { 'nova::compute':
  vnc_enabled                   => true,
  vncserver_proxyclient_address => '192.0.2.10',
  vncproxy_host                 => 'controller.example.com',
}
class { 'nova::compute::libvirt':
  virt_type        => 'kvm',
  vncserver_listen => '0.0.0.0',
}
