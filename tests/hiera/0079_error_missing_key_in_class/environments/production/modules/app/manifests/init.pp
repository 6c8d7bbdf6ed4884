class app {
  $port = lookup('app::port')
  $user = lookup('app::user')
  notify { 'mrtest-app': message => "${user}:${port}" }
}
