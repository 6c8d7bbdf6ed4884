notice(1.with |$x| { $x + 1 })
