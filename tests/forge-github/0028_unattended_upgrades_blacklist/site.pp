# Unattended upgrades with a package blacklist, a bandwidth limit, a random
# sleep, extra origins and the upgrade run at shutdown.
class { 'unattended_upgrades':
  blacklist           => ['linux-image-*', 'postgresql-*'],
  extra_origins       => ['origin=Docker,label=Docker CE'],
  dl_limit            => 512,
  random_sleep        => 1800,
  install_on_shutdown => true,
  age                 => { 'min' => 2, 'max' => 30 },
  syslog_enable       => true,
}
