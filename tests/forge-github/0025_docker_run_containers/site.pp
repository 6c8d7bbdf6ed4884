# Containers run as systemd services (docker::run), with an image pulled
# first (docker::image), ports, volumes, environment and a dependency.
include docker
docker::image { 'redis':
  image_tag => '7',
}
docker::run { 'mrtest-redis':
  image   => 'redis:7',
  ports   => ['6379:6379'],
  volumes => ['/srv/mrtest-redis:/data'],
  command => 'redis-server --appendonly yes',
}
docker::run { 'mrtest-web':
  image   => 'nginx:stable',
  ports   => ['8080:80'],
  env     => ['MRTEST_MODE=production', 'TZ=UTC'],
  depends => ['mrtest-redis'],
  restart => 'always',
}
