# An OpenVPN server with per-client configuration (a fixed address and
# routes) and a revoked certificate.
openvpn::server { 'mrtest-site':
  country      => 'FR',
  province     => 'IDF',
  city         => 'Paris',
  organization => 'example.org',
  email        => 'vpn@example.org',
  server       => '10.201.0.0 255.255.255.0',
  proto        => 'tcp',
  port         => '443',
}
openvpn::client { 'mrtest-branch': server => 'mrtest-site' }
openvpn::client_specific_config { 'mrtest-branch':
  server   => 'mrtest-site',
  ifconfig => '10.201.0.10 255.255.255.0',
  iroute   => ['192.168.60.0 255.255.255.0'],
}
openvpn::client { 'mrtest-lost-laptop': server => 'mrtest-site' }
openvpn::revoke { 'mrtest-lost-laptop':
  server => 'mrtest-site',
}
