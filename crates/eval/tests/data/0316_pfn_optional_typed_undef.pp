function f(Optional[Integer] $x) { type($x) }
notice(f(undef))
notice(f(3))
