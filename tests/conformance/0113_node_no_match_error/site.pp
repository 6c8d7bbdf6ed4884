node 'mrtest-a.example.com' {
  notify { 'mrtest-a': }
}
node /^mrtest-db/ {
  notify { 'mrtest-db': }
}
