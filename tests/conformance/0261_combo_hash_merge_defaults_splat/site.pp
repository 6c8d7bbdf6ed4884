class profile::services (Hash $overrides = {}) {
  $defaults = { 'ensure' => 'running', 'enable' => true }
  $services = {
    'mrtest-api'    => {},
    'mrtest-worker' => { 'ensure' => 'stopped' },
  } + $overrides
  $services.each |$svc, $cfg| {
    service { $svc: * => $defaults + $cfg }
  }
}
class { 'profile::services':
  overrides => { 'mrtest-cache' => { 'enable' => false } },
}
