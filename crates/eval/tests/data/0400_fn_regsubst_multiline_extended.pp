notice(regsubst("a\nb", 'a.b', 'X', 'M'))
notice(regsubst("a\nb", 'a.b', 'X'))
notice(regsubst('abc', 'a b # comment', 'X', 'E'))
