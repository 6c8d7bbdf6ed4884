$t = Timestamp('2020-07-04T12:00:00Z')
notice($t.strftime('%Y-%m-%dT%H:%M:%S %z', 'UTC'))
notice($t.strftime('%H:%M %Z'))
