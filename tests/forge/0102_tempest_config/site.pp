# Tempest installed from Debian's package, configured against an existing
# cloud (images and networks given by name, nothing created).
class { 'tempest':
  install_from_source => false,
  configure_images    => false,
  configure_networks  => false,
  identity_uri_v3     => 'http://mrtest.example.com:5000/v3',
  admin_username      => 'admin',
  admin_password      => 'mrtest-admin-secret',
  admin_project_name  => 'admin',
  image_ref           => 'mrtest-image-uuid',
  public_network_id   => 'mrtest-network-uuid',
  cinder_available    => true,
  glance_available    => true,
  neutron_available   => true,
  nova_available      => true,
  swift_available     => false,
}
