notice(to_json(1, 2))
