notice(strftime(Timespan(3725), '%H:%M:%S'))
notice(Timespan(90061).strftime('%D-%H'))
