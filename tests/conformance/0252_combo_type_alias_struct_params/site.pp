class { 'mrtestcfg':
  settings => { 'name' => 'mrtest', 'port' => 8443, 'tls' => true },
}
