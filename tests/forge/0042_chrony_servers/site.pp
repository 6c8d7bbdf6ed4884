# Chrony with chosen servers and peers.
class { 'chrony':
  servers         => ['ntp1.example.com', 'ntp2.example.com'],
  queryhosts      => ['192.0.2.0/24'],
  makestep_seconds => 1,
  makestep_updates => 3,
}
