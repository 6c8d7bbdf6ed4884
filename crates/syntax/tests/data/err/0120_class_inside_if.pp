if true {
  class bar { }
}
