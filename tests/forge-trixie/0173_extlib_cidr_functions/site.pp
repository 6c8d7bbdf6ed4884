# extlib's network helpers: network, netmask, last address and prefix length
# of the host's subnet, and whether addresses lie in it.
$cidr = "${facts['networking']['network']}/${extlib::netmask_to_cidr($facts['networking']['netmask'])}"

$lines = [
  "cidr=${cidr}",
  "network=${extlib::cidr_to_network('192.0.2.2/24')}",
  "netmask=${extlib::cidr_to_netmask('10.20.0.0/14')}",
  "last=${extlib::last_in_cidr('192.0.2.0/24')}",
  "v6netmask=${extlib::cidr_to_netmask('fd00::2/64')}",
  "self_inside=${extlib::is_in_cidr($facts['networking']['ip'], $cidr)}",
  "other_inside=${extlib::is_in_cidr('198.51.100.7', $cidr)}",
]
file { '/etc/mrtest-network.conf':
  ensure  => file,
  content => "${join($lines, "\n")}\n",
}
