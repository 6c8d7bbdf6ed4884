class profile::db (Array $packages) {
  notify { 'mrtest-db': message => "packages=${packages}" }
}
