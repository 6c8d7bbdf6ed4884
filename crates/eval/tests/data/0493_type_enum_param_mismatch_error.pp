function f(Enum['a', 'b'] $e) { $e }
notice(f('c'))
