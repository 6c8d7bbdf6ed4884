$attrs = {
  'ensure' => 'file',
  'mode'   => '0640',
  'group'  => 'adm',
}
file { '/tmp/mrtest-splat':
  owner => 'root',
  *     => $attrs,
}
