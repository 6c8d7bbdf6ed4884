# The editor alternative chosen, and a new alternative registered.
alternatives { 'editor':
  path => '/usr/bin/vim.basic',
}
alternative_entry { '/usr/bin/mytool-2':
  ensure   => present,
  altlink  => '/usr/bin/mytool',
  altname  => 'mytool',
  priority => 10,
  require  => Package['mytool'],
}
package { 'mytool': ensure => installed }
