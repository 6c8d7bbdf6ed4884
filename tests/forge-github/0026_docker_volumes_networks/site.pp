# Docker without Docker's repository (Debian's docker.io), a named volume,
# a user-defined network and a command run in a container (docker::exec).
class { 'docker':
  use_upstream_package_source => false,
  docker_ce_package_name      => 'docker.io',
  service_overrides_template  => false,
}
docker_volume { 'mrtest-data':
  ensure => present,
}
docker_network { 'mrtest-net':
  ensure  => present,
  driver  => 'bridge',
  subnet  => '172.28.0.0/16',
  gateway => '172.28.0.1',
}
docker::exec { 'mrtest-redis-save':
  container => 'mrtest-redis',
  command   => 'redis-cli save',
  tty       => false,
  unless    => 'test -f /data/dump.rdb',
}
