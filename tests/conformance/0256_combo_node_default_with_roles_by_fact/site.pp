node default {
  $role = $facts['virtual'] ? {
    'kvm'      => 'role::vm',
    'physical' => 'role::metal',
    default    => 'role::unknown',
  }
  include $role
}
class role::vm { include profile::guest_tools }
class role::metal { }
class profile::guest_tools {
  package { 'mrtest-qemu-guest-agent': ensure => installed }
  service { 'mrtest-qemu-guest-agent': ensure => running, require => Package['mrtest-qemu-guest-agent'] }
}
