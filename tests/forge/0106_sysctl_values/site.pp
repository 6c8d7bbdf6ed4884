# Kernel parameters set both in /etc/sysctl.conf and at runtime, one by one
# and several at once from a hash.
sysctl::value { 'net.ipv4.ip_forward':
  value => '1',
}
sysctl::value { 'vm.swappiness':
  value => 10,
}
class { 'sysctl::values':
  args => {
    'net.core.somaxconn'           => { 'value' => 1024 },
    'net.ipv4.ip_local_port_range' => { 'value' => '1024 65000' },
  },
}
