$t = Timestamp('2020-01-01T00:00:00Z')
notice($t)
notice("${t}")
notice(Timestamp('2021-06-15T12:30:45.123Z'))
