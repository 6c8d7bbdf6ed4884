file { '/tmp/mrtest-a1':
  ensure => file,
  alias  => 'mrtest-alias',
}
file { '/tmp/mrtest-a2':
  ensure => file,
  alias  => 'mrtest-alias',
}
