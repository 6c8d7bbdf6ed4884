if true {
  node 'x' { }
}
