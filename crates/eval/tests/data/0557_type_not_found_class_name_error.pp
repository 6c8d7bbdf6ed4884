class foo {}
notice(Foo)
