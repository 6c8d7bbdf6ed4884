notice(ceiling('abc'))
