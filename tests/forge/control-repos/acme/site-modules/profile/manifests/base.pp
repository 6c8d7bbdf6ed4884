# The baseline of every acme node: time, SSH, APT, the message of the day,
# the admins' accounts, packages and kernel settings.
#
# The packages (a unique merge), the users (a deep merge with `--` as the
# knockout prefix) and the sysctl settings (a hash merge) gather every level
# of the hierarchy: see lookup_options in data/common.yaml.
class profile::base (
  Array[String[1]]                           $packages,
  Hash[String[1], Hash]                      $users,
  Hash[String[1], Variant[String, Integer]]  $sysctl = {},
  Stdlib::Absolutepath                       $sysctl_file = '/etc/sysctl.d/60-mrtest-acme.conf',
) {
  include ntp
  include ssh::server
  include apt
  include profile::base::motd

  ensure_packages($packages.sort)

  $users.each |String $name, Hash $attributes| {
    profile::base::admin_user { $name:
      * => $attributes,
    }
  }

  $sysctl.each |String $key, $value| {
    sysctl::value { $key:
      value  => $value,
      target => $sysctl_file,
    }
  }
}
