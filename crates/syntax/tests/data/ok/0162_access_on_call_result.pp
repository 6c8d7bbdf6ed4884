notice(split('a,b', ',')[1])
