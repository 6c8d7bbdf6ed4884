define foo {
  node 'x' { }
}
