# The provider becomes suitable during the run: the resource comes before
# the marker in the manifest and does not depend on it, so Puppet puts it
# aside until nothing else is ready, then applies it.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_late { '/tmp/mrtest-rbtypes/late.txt': ensure => present }
notify { 'after the late file': require => Mrtest_late['/tmp/mrtest-rbtypes/late.txt'] }
file { '/tmp/mrtest-rbtypes/ready': ensure => file, content => "ready\n" }
