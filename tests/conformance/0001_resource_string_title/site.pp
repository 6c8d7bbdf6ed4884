file { '/tmp/mrtest-motd':
  ensure  => file,
  owner   => 'root',
  group   => 'root',
  mode    => '0644',
  content => "managed by mrtest\n",
}
notify { 'mrtest-hello': message => 'hello world' }
