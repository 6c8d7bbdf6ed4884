notice(compare(1.5, 1))
notice(compare(SemVer('1.0.0'), SemVer('2.0.0')))
notice(compare(Timespan(5), Timespan(3)))
