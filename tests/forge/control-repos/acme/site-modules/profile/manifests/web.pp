# Apache with the node's virtual hosts, the modules they need, and the
# rotation of the sites' own logs. The `apache` class takes its parameters
# from Hiera (data/role/web.yaml).
class profile::web (
  Hash[String[1], Hash] $vhosts = {},
  Hash                  $vhost_defaults = {},
  Array[String[1]]      $modules = [],
  Stdlib::Absolutepath  $docroot_base = '/srv/mrtest-www',
  Hash[String[1], Hash] $logrotate_rules = {},
) {
  include apache

  $modules.each |String $module| {
    include "apache::mod::${module}"
  }

  file { $docroot_base:
    ensure => directory,
    owner  => 'root',
    group  => 'root',
    mode   => '0755',
  }

  $vhosts.each |String $name, Hash $params| {
    apache::vhost { $name:
      *       => $vhost_defaults + $params,
      require => File[$docroot_base],
    }
  }

  create_resources('logrotate::rule', $logrotate_rules)

  concat::fragment { 'motd-web':
    target  => '/etc/motd',
    content => "Virtual hosts: ${vhosts.keys.sort.join(', ')}\n",
    order   => '20',
  }
}
