notice(type('hello world'))
notice(type(''))
notice(type('x', reduced))
