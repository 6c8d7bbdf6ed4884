Exec {
  path    => ['/usr/bin', '/bin'],
  timeout => 300,
  user    => 'root',
}
exec { 'mrtest-echo':
  command => 'echo mrtest',
  timeout => 60,
}
exec { 'mrtest-true':
  command => '/bin/true',
  path    => '/usr/local/bin',
}
