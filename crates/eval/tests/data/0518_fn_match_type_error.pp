notice(match(5, /x/))
