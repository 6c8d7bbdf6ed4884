# SELinux (voxpupuli selinux) set permissive, the mode written to
# /etc/selinux/config, with a login mapping to an SELinux user.
class { 'selinux':
  mode => 'permissive',
}
selinux::login { 'mrtest-admins_staff_u':
  selinux_login_name => '%mrtest-admins',
  selinux_user       => 'staff_u',
}
