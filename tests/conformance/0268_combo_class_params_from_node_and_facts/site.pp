node default {
  class { 'profile::swap':
    size_mb => $facts['memory']['system']['total_bytes'] / 1048576 / 2,
  }
}
class profile::swap (Integer $size_mb) {
  exec { 'mrtest-mkswap':
    command => "/bin/dd if=/dev/zero of=/tmp/mrtest-swap bs=1M count=${size_mb}",
    creates => '/tmp/mrtest-swap',
  }
  -> notify { 'mrtest-swap-size': message => "${size_mb} MB" }
}
