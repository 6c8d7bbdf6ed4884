define foo {
  class bar { }
}
