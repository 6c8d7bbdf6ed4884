node 'a' {
