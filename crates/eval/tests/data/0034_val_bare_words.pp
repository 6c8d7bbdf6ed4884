notice(hello)
notice([foo, bar])
notice(foo::bar)
