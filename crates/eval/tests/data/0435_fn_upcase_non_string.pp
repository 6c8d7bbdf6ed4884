notice(upcase(5))
