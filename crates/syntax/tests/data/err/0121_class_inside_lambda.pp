[1].each |$x| {
  class bar { }
}
