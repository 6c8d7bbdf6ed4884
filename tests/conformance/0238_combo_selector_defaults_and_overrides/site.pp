$mrtest_tier = $facts['networking']['domain'] ? {
  /^prod\./    => 'production',
  'example.com' => 'staging',
  default      => 'dev',
}
Service { enable => true }
class mrtest_monitor (String $tier) {
  Service { hasstatus => true }
  service { 'mrtest-agent': ensure => running }
  if $tier == 'staging' {
    service { 'mrtest-debug-agent': ensure => stopped, enable => false }
  }
}
class { 'mrtest_monitor': tier => $mrtest_tier }
