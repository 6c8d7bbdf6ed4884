node 'mrtest-web1.example.com', 'mrtest.example.com', 'mrtest-web2.example.com' {
  notify { 'mrtest-node-multi': }
}
