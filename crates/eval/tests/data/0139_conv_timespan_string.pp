notice(Timespan('1:30:00', '%H:%M:%S'))
notice(Integer(Timespan(90)))
notice(Float(Timespan(1.5)))
