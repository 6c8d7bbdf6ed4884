# iptables rules: profile::firewall::pre's first, the rules of the node's
# data (deep-merged from every level, the profiles' own data included),
# then profile::firewall::post's last; the rules Puppet does not know are
# purged. The resource defaults ordering the rules are in site.pp.
class profile::firewall (
  Hash[String[1], Hash] $rules = {},
  Boolean               $purge = true,
) {
  include firewall

  if $purge {
    resources { 'firewall':
      purge => true,
    }
  }

  class { ['profile::firewall::pre', 'profile::firewall::post']: }

  $rules.each |String $name, Hash $rule| {
    firewall { $name:
      * => $rule,
    }
  }
}
