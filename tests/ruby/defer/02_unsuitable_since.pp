# The default provider was suitable when the catalog was made, and is no
# longer when the run reaches its resources (the marker is removed first):
# Puppet says that provider is not functional, for each.
file { '/tmp/mrtest-rbtypes/ready': ensure => absent }
mrtest_late { '/tmp/mrtest-rbtypes/first.txt': ensure => present }
notify { 'after the first': require => Mrtest_late['/tmp/mrtest-rbtypes/first.txt'] }
