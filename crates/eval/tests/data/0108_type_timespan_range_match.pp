notice(Timespan(10) =~ Timespan[0, 60])
notice(Timespan(100) =~ Timespan[0, 60])
