notice(type(Deferred("f")))
notice(Deferred({name => "g", arguments => [1]}))
notice(Deferred("h", "x"))
