notice(camelcase(1))
