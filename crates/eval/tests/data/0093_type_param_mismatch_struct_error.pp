function f(Struct[{a => Integer}] $h) { $h }
notice(f({a => 'x'}))
