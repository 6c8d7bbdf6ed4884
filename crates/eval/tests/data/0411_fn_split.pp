notice(split('a,b,c', ','))
notice(split('a1b22c', /\d+/))
notice(split('a.b', '.'))
notice(split('abc', ''))
