# A user without a gid whose name is also a group's: Puppet's useradd
# provider puts it in that group (useradd alone refuses, the group
# existing).
group { 'mrtest-same':
  ensure => present,
}
user { 'mrtest-same':
  ensure  => present,
  require => Group['mrtest-same'],
}
