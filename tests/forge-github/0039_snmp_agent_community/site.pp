# The Net-SNMP agent (snmp) listening on all addresses, with a read-only
# community for a network, a location and a contact.
class { 'snmp':
  agentaddress => ['udp:161', 'udp6:161'],
  ro_community => 'mrtest-ro',
  ro_network   => '192.0.2.0/24',
  contact      => 'ops@example.com',
  location     => 'Rack 12, Example DC',
}
