Foo(1)
