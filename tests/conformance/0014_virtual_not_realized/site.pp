@user { 'mrtest-ghost':
  ensure => present,
  uid    => 4001,
}
@notify { 'mrtest-virtual-note': }
notify { 'mrtest-real': }
