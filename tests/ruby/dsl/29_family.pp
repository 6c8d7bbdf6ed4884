# A property whose munge reads the resource's provider (firewall's
# addresses): the type's default for the machine (ipv4, by `defaultfor`,
# though ip6 sorts first) and a provider the resource names, each known
# before the address is munged. ip6 is a child of ipv4 whose class runs
# ipv4's command another way, and its instances follow their class.
# `flags` sorts what it is given, as the provider reads it back.
mrtest_family { 'lo':
  address => '127.0.0.1',
  flags   => ['up', 'loopback'],
}
mrtest_family { 'lo6':
  address  => '::1',
  provider => ip6,
}
