# Monit with a check of a service process.
class { 'monit':
  check_interval => 60,
  httpserver     => true,
  httpserver_allow => ['admin:secret'],
}
monit::check { 'sshd':
  content => "check process sshd with pidfile /var/run/sshd.pid\n  start program \"/etc/init.d/ssh start\"\n",
}
