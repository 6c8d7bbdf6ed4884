# The IPv6 family of mrtest_family, a child of ipv4 that runs the family
# command another way, as firewall's ip6tables makes its parent's
# `iptables` run ip6tables.
Puppet::Type.type(:mrtest_family).provide(:ip6, parent: :ipv4) do
  desc 'Keeps the address in its file, with the IPv6 family.'

  commands family6: 'echo'

  def self.family(*)
    family6('inet6')
  end
end
