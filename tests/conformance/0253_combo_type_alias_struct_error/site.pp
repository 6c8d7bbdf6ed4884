class { 'mrtestcfg2':
  settings => { 'name' => 'mrtest', 'port' => 'http' },
}
