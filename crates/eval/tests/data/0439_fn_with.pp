notice(with(1, 2) |$a, $b| { $a + $b })
notice(with('x') |$s| { "${s}${s}" })
notice(with() || { 'no args' })
