# globex's application: a systemd service run by its own user, configured
# by an INI file (deep-merged settings and the tier's tuning) and a
# drop-in holding the database password. The database is local when
# $manage_database is true (profile::mysql), else the MySQL client only.
class profile::app (
  String[1]                     $service_name,
  Stdlib::Port                  $port,
  Stdlib::Absolutepath          $install_dir,
  Hash[String[1], Hash]         $settings,
  Stdlib::Host                  $db_host,
  String[1]                     $db_name,
  String[1]                     $db_user,
  Sensitive[String[1]]          $db_password,
  Boolean                       $manage_database = false,
  Array[Stdlib::IP::Address]    $clients = [],
  Enum['production', 'staging'] $tier = lookup('globex::tier'),
) {
  $tuning = lookup("globex::tiers.${tier}")
  $config_dir = "/etc/${service_name}"

  include mysql::client
  if $manage_database {
    include profile::mysql
    mysql::db { $db_name:
      user     => $db_user,
      password => $db_password.unwrap,
      host     => 'localhost',
      grant    => ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'INDEX'],
      before   => Service[$service_name],
    }
  }

  group { $service_name:
    ensure => present,
    system => true,
  }
  user { $service_name:
    ensure => present,
    system => true,
    gid    => $service_name,
    home   => $install_dir,
    shell  => '/usr/sbin/nologin',
  }
  file { [$install_dir, $config_dir]:
    ensure => directory,
    owner  => 'root',
    group  => $service_name,
    mode   => '0750',
  }

  inifile::create_ini_settings(
    $settings + {
      'server'   => $settings.get('server', {}) + {
        'port'      => $port,
        'workers'   => $tuning['app_workers'],
        'log_level' => $tuning['app_log_level'],
      },
      'database' => {
        'host' => $db_host,
        'name' => $db_name,
        'user' => $db_user,
      },
    },
    {
      'path'    => "${config_dir}/app.ini",
      'require' => File[$config_dir],
      'notify'  => Service[$service_name],
    },
  )

  systemd::unit_file { "${service_name}.service":
    content => epp('profile/app/unit.epp', {
      'description' => "globex application (${tier})",
      'user'        => $service_name,
      'install_dir' => $install_dir,
      'config'      => "${config_dir}/app.ini",
    }),
  }
  systemd::dropin_file { 'database.conf':
    unit    => "${service_name}.service",
    content => Sensitive("[Service]\nEnvironment=MRTEST_APP_DB_PASSWORD=${db_password.unwrap}\n"),
    mode    => '0400',
  }
  service { $service_name:
    ensure    => running,
    enable    => true,
    subscribe => [Systemd::Unit_file["${service_name}.service"], Systemd::Dropin_file['database.conf']],
  }

  $clients.each |Stdlib::IP::Address $client| {
    firewall { "200 accept ${service_name} from ${client}":
      proto  => 'tcp',
      dport  => $port,
      source => $client,
      action => 'accept',
    }
  }
}
