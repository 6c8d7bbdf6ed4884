# Docker CE from Docker's apt repository (docker), with users in the
# docker group, a log driver and DNS servers.
class { 'docker':
  docker_users => ['mrtest-alice'],
  log_driver   => 'json-file',
  log_opt      => ['max-size=10m', 'max-file=3'],
  dns          => ['192.0.2.53'],
}
