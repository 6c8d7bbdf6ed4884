notice(3 =~ Integer[1, 5])
notice(6 =~ Integer[1, 5])
notice(1.0 =~ Integer)
notice(-3 =~ Integer[default, 0])
