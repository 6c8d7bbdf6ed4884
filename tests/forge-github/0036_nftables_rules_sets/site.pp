# nftables rules of one's own: a raw rule, simple rules by port and
# address (nftables::simplerule), and a named set of addresses.
include nftables
nftables::set { 'mrtest_admins':
  type     => 'ipv4_addr',
  elements => ['192.0.2.10', '192.0.2.11'],
}
nftables::rule { 'default_in-mrtest_admin_ssh':
  content => 'ip saddr @mrtest_admins tcp dport 22 accept',
}
nftables::simplerule { 'mrtest_postgres':
  chain   => 'default_in',
  dport   => 5432,
  proto   => 'tcp',
  saddr   => '192.0.2.0/24',
  comment => 'PostgreSQL from the LAN',
}
nftables::simplerule { 'mrtest_smtp':
  chain => 'default_out',
  dport => [25, 587],
  proto => 'tcp',
}
