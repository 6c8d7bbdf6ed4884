$attrs = { 'ensure' => 'file', 'mode' => '0600' }
file { '/tmp/a':
  * => $attrs,
}
