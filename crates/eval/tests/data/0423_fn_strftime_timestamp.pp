$t = Timestamp('2020-01-01T00:00:00Z')
notice(strftime($t, '%Y-%m-%d %H:%M:%S'))
notice($t.strftime('%A %B %j'))
notice(strftime($t, '%s'))
