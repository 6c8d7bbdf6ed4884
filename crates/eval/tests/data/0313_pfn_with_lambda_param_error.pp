function f($x) { $x }
notice(f(1) |$y| { $y })
