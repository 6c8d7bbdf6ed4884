node 'mrtest.example.com' {
  class { 'role::db': size => 'large' }
}
