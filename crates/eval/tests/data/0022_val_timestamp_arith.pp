$t = Timestamp('2020-01-01T00:00:00Z')
notice($t + 86400)
notice($t - Timespan(60))
notice(Timestamp('2020-01-02T00:00:00Z') - $t)
