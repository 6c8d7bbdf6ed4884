# A package dpkg knows of but never installed (another package suggests
# it), installed behind the provider's back once the provider has listed
# the packages: it is read again when its turn comes, and is in sync, as
# Puppet's provider, which lists only the packages dpkg has, finds it.
# (A package a dependency brings in: postgresql's cron.)
package { 'mrtest-pkg-known':
  ensure   => installed,
  provider => dpkg,
}
-> exec { 'mrtest-pkg-known-two installed by hand':
  command => '/usr/bin/dpkg -i /tmp/mrtest-pkg/mrtest-pkg-known-two_1.0_all.deb',
  creates => '/usr/share/mrtest-pkg-known-two/data',
}
-> package { 'mrtest-pkg-known-two':
  ensure   => installed,
  provider => dpkg,
  source   => '/tmp/mrtest-pkg/mrtest-pkg-known-two_1.0_all.deb',
}
