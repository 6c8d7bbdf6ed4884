class foo {
  node 'x' { }
}
