notice('abc' =~ String)
notice('abc' =~ String[3, 3])
notice('abcd' =~ String[1, 3])
notice(5 =~ String)
