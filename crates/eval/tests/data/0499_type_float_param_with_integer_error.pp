function f(Float $x) { $x }
notice(f(1))
