class outer {
  class inner { }
}
