notice(Array('abc'))
