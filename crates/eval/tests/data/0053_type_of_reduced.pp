notice(type([1, 2, 3], reduced))
notice(type({a => 1}, reduced))
