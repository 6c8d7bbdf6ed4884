class profile::base (
  Array[String] $packages,
  Array[String] $ntp_servers,
  Hash $users,
  Sensitive[String] $admin_password,
  String $motd,
) {
  notify { 'mrtest-packages': message => "${packages}" }
  notify { 'mrtest-ntp': message => "${ntp_servers}" }
  $users.each |$name, $attrs| {
    notify { "mrtest-user-${name}": message => "uid=${attrs['uid']} groups=${attrs['groups']}" }
  }
  notify { 'mrtest-admin-password': message => $admin_password }
  notify { 'mrtest-motd': message => $motd }
}
