class x {
  require foo
  contain bar
}
