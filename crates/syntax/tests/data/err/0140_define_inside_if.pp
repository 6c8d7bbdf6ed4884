if true {
  define bar { }
}
