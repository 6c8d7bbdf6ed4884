function nothing() { }
notice(nothing())
notice(type(nothing()))
