notice(3.map |$x| { $x })
notice('ab'.map |$c| { $c })
