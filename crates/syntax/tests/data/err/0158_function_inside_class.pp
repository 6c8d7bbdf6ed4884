class foo {
  function bar() { }
}
