# A syslog client forwarding to a central server over TCP. Debian installs
# saz-rsyslog as /usr/share/puppet/modules/saz-rsyslog, a directory name
# that is not a valid module name, so Puppet does not load it from there
# and cannot find the class.
class { 'rsyslog::client':
  server      => 'loghost.example.com',
  port        => '514',
  remote_type => 'tcp',
  log_local   => true,
}
