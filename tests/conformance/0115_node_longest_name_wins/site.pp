node 'mrtest' {
  notify { 'mrtest-short-name': }
}
node 'mrtest.example' {
  notify { 'mrtest-middle-name': }
}
node 'mrtest.example.com' {
  notify { 'mrtest-full-name': }
}
