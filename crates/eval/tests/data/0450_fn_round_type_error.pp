notice(round('abc'))
