# SELinux policy settings from defined types: a boolean, a port type for a
# custom HTTP port and a file context with restorecon.
class { 'selinux':
  mode => 'enforcing',
}
selinux::boolean { 'httpd_can_network_connect': }
selinux::port { 'mrtest-http-8181':
  seltype  => 'http_port_t',
  protocol => 'tcp',
  port     => 8181,
}
selinux::fcontext { 'mrtest-web-content':
  seltype  => 'httpd_sys_content_t',
  pathspec => '/srv/mrtest-web(/.*)?',
}
