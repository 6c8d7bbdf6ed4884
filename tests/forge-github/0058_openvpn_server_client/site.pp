# An OpenVPN server (openvpn::server) with its easy-rsa CA and a routed
# network, and a client (openvpn::client) of it.
openvpn::server { 'mrtest-vpn':
  country      => 'DE',
  province     => 'BE',
  city         => 'Berlin',
  organization => 'example.com',
  email        => 'vpn@example.com',
  server       => '10.200.0.0 255.255.255.0',
  push         => ['route 192.168.50.0 255.255.255.0'],
  proto        => 'udp',
  port         => '1194',
}
openvpn::client { 'mrtest-laptop':
  server      => 'mrtest-vpn',
  remote_host => 'vpn.example.com',
}
