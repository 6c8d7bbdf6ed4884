function f(Variant[Integer, Boolean] $v) { $v }
notice(f('x'))
