# Test-driven configuration: NRPE checks that a process runs and that a
# file exists and keeps its owner; the module also runs a generator at
# compile time for the Nagios server's side (into a directory absent here).
class { 'tdc':
  nagiosdir => '/var/lib/mrtest-tdc',
}
# The checks notify the NRPE service, which the site manages.
package { 'nagios-nrpe-server':
  ensure => installed,
}
service { 'nagios-nrpe-server':
  ensure  => running,
  require => Package['nagios-nrpe-server'],
}
tdc::test_process { 'sshd':
  process  => ['sshd'],
  minprocs => 1,
  maxprocs => 10,
}
tdc::test_file { 'sshd-config':
  file => ['/etc/ssh/sshd_config'],
}
tdc::test_file_owner { 'sshd-config':
  file => [{ 'file' => '/etc/ssh/sshd_config', 'owner' => 'root' }],
}
