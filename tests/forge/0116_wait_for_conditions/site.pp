# Waiting during a run: until a command's output matches, until it exits
# with a given code, and for a fixed number of seconds after a service
# starts.
service { 'ssh':
  ensure => running,
}
wait_for { 'systemctl is-active ssh':
  regex   => '^active',
  require => Service['ssh'],
}
wait_for { 'mrtest-port-check':
  query             => 'nc -z 127.0.0.1 22',
  exit_code         => 0,
  polling_frequency => 1,
  max_retries       => 30,
}
wait_for { 'mrtest-settle':
  seconds => 5,
}
