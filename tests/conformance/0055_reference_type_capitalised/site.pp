notify { 'mrtest-cap': }
exec { 'mrtest-cap-exec':
  command   => '/bin/true',
  subscribe => Notify['mrtest-cap'],
}
$t = Notify
notify { 'mrtest-cap-2':
  require => $t['mrtest-cap'],
}
