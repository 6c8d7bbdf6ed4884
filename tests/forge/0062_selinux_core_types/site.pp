# An SELinux boolean and a policy module (types from selinux_core).
selboolean { 'httpd_can_network_connect':
  persistent => true,
  value      => on,
}
selmodule { 'mymodule':
  ensure      => present,
  selmoduledir => '/usr/share/selinux/targeted',
}
