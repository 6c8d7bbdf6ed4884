file { '/tmp/a':
  owner => 'root',
  *     => { 'mode' => '0600' },
}
