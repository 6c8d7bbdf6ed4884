notice(strftime('2020-01-01', '%Y'))
