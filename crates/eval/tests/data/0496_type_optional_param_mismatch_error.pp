function f(Optional[Integer] $v) { $v }
notice(f('x'))
