function Foo() { }
