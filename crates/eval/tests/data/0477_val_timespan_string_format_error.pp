notice(String(Timespan(60), '%H:%M'))
