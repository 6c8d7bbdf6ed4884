$x = 1
[1, 2].each |$v| { notice($v) }
