notice(Timespan(3600))
notice(Timespan(90.5))
notice(Timespan('1-02:03:04'))
notice(Timespan({hours => 2, minutes => 30}))
