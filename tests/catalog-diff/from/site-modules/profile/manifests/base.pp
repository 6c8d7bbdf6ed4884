# What every node has: time, a banner, administrators, tools.
class profile::base (
  Array[String] $admins,
  String $banner,
  Array[String] $packages,
) {
  include ntp
  ensure_packages($packages)
  class { 'motd':
    message => $banner,
    role    => pick($facts['role'], 'base'),
  }
  $admins.each |$admin| {
    user { $admin:
      ensure     => present,
      managehome => true,
      groups     => ['sudo'],
    }
  }
  file { '/etc/ssh/sshd_config.d/hardening.conf':
    ensure => file,
    source => 'puppet:///modules/profile/hardening.conf',
  }
  file { '/etc/ssh/sshd_banner':
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0644',
    content => "${banner}\n",
  }
}
