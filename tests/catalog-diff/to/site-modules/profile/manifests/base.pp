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
  # The datacenter, when the node's certificate says it.
  $datacenter = $trusted['extensions']['pp_datacenter']
  if $datacenter {
    file { '/etc/datacenter':
      ensure  => file,
      content => "${datacenter}\n",
    }
  }
  file { '/etc/ssh/sshd_banner':
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0640',
    content => "${banner}\n",
  }
}
