# A property whose munge reads the resource's provider (firewall's
# addresses): the type's default for the machine (ipv4, by `defaultfor`,
# though ip6 sorts first) and a provider the resource names, each known
# before the address is munged.
mrtest_family { 'lo':
  address => '127.0.0.1',
}
mrtest_family { 'lo6':
  address  => '::1',
  provider => ip6,
}
