define mrtestapp::instance (
  Integer $port,
  Boolean $enabled = true,
) {
  $dir = "/tmp/mrtest-apps/${title}"
  file { $dir: ensure => directory, mode => '0750' }
  file { "${dir}/app.properties":
    ensure  => file,
    content => "port=${port}\n",
  }
  exec { "mrtest-migrate-${title}":
    command     => "echo migrate ${title}",
    refreshonly => true,
    subscribe   => File["${dir}/app.properties"],
  }
  service { "mrtest-app-${title}":
    ensure  => $enabled ? { true => running, false => stopped },
    enable  => $enabled,
    require => Exec["mrtest-migrate-${title}"],
  }
}
