function f(Array[String] $a) { $a }
notice(f([1, 2]))
