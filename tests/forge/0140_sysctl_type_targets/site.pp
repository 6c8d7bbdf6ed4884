# The module's sysctl and sysctl_runtime types used directly: a value
# written to a file of /etc/sysctl.d and applied to the running kernel.
sysctl { 'net.ipv6.conf.all.disable_ipv6':
  val    => '1',
  target => '/etc/sysctl.d/60-mrtest-ipv6.conf',
}
sysctl_runtime { 'net.ipv6.conf.all.disable_ipv6':
  val => '1',
}
sysctl::value { 'kernel.panic':
  value  => '10',
  target => '/etc/sysctl.d/60-mrtest-panic.conf',
}
