notice(with(1) |$a, $b = 'dflt'| { "${a} ${b}" })
