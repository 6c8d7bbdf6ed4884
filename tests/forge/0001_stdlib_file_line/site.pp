# A line kept in a file, and a line replaced by a pattern.
file { '/etc/sudoers.d/mrtest':
  ensure => file,
  mode   => '0440',
}
file_line { 'sudo_rule':
  path => '/etc/sudoers.d/mrtest',
  line => '%sudo ALL=(ALL) ALL',
}
file_line { 'bashrc_proxy':
  ensure => present,
  path   => '/etc/bash.bashrc',
  line   => 'export HTTP_PROXY=http://squid.example.com:3128',
  match  => '^export\ HTTP_PROXY\=',
}
