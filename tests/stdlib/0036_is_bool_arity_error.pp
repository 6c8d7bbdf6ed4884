notice(is_bool(1, 2))
