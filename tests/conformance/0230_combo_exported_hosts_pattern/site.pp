class profile::hostentry {
  @@file { "/tmp/mrtest-hosts.d/${facts['networking']['fqdn']}":
    content => "${facts['networking']['ip']} ${facts['networking']['hostname']}\n",
    tag     => 'mrtest_cluster',
  }
  File <<| tag == 'mrtest_cluster' |>>
  file { '/tmp/mrtest-hosts.d': ensure => directory, purge => true, recurse => true }
}
include profile::hostentry
