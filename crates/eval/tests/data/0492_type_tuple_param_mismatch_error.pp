function f(Tuple[Integer, String] $t) { $t }
notice(f([1, 2]))
