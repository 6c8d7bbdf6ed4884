define Foo { }
