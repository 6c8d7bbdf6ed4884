node 'mrtest.example.com' {
  include role::proxy
}
node default { }
