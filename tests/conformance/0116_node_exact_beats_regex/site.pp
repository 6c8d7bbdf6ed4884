node /mrtest/ {
  notify { 'mrtest-regex': }
}
node 'mrtest.example.com' {
  notify { 'mrtest-exact': }
}
