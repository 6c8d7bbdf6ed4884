notice(split(5, ','))
