# NTP restricted to the local network, listening on one interface.
class { 'ntp':
  servers         => ['ntp1.example.com', 'ntp2.example.com'],
  restrict        => ['127.0.0.1', '192.0.2.0 mask 255.255.255.0 nomodify notrap'],
  interfaces      => ['127.0.0.1', '192.0.2.2'],
  service_ensure  => 'running',
  package_ensure  => 'latest',
}
