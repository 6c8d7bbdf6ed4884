node 'mrtest-base' {
  notify { 'mrtest-base': }
}
node 'mrtest.example.com' inherits 'mrtest-base' {
  notify { 'mrtest-child': }
}
