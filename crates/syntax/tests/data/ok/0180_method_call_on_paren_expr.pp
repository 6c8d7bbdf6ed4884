notice((1 + 2).with |$x| { $x })
