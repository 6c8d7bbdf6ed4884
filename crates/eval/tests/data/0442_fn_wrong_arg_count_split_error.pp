notice(split('a,b'))
