notice(SemVer('1.0.0') < SemVer('1.0.1'))
notice(Timespan(10) > Timespan(5))
notice(Timestamp('2020-01-01T00:00:00Z') < Timestamp('2021-01-01T00:00:00Z'))
