define foo {
  define bar { }
}
