# globex's site manifest: a node's role follows from its name,
# <role><NN>.<site>.example.net. What differs between nodes of a role is in
# Hiera (data/nodes, data/sites).

# Every firewall rule comes between the profile::firewall::pre and ::post
# rules (see profile::firewall).
Firewall {
  require => Class['profile::firewall::pre'],
  before  => Class['profile::firewall::post'],
}

node /^cache\d+\.(ams|fra)\.example\.net$/ {
  include role::cache
}

node /^mail\d+\.(ams|fra)\.example\.net$/ {
  include role::mail
}

node /^app\d+\.(ams|fra)\.example\.net$/ {
  include role::app
}

node default {
  fail("globex has no role for the node ${trusted['certname']}")
}
