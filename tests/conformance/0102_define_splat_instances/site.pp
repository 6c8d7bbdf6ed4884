define mrtest_svcdef (String $ensure = 'running', Boolean $enable = true) {
  service { "mrtest-${title}": ensure => $ensure, enable => $enable }
}
$services = {
  'alpha' => { 'ensure' => 'stopped' },
  'beta'  => { 'enable' => false },
}
$services.each |$name, $params| {
  mrtest_svcdef { $name: * => $params }
}
