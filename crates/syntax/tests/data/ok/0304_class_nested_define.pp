class outer {
  define thing($x) { }
}
