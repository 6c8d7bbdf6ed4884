node 'mrtest.example.com' {
  notify { 'mrtest-node-exact': }
}
node 'mrtest-other.example.com' {
  notify { 'mrtest-node-other': }
}
