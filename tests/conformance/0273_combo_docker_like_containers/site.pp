class { 'profile::containers':
  containers => {
    'mrtest-redis' => { 'image' => 'redis:7', 'ports' => ['6379:6379'] },
    'mrtest-proxy' => { 'image' => 'nginx:1.25', 'ports' => ['80:80', '443:443'], 'depends' => ['mrtest-redis'] },
  },
}
