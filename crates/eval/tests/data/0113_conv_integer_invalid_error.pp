notice(Integer('abc'))
