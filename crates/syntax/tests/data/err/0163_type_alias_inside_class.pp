class foo {
  type Foo::Bar = Integer
}
