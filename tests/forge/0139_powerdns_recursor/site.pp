# The PowerDNS recursor answering on the local network and forwarding an
# internal zone to the authoritative servers.
class { 'powerdns::recursor':
  local_address => '192.0.2.53',
  forward_zones => ['example.internal=192.0.2.10;192.0.2.11'],
  quiet         => 'yes',
}
