notice(String(Timestamp('2020-03-04T05:06:07Z'), '%Y/%m/%d'))
