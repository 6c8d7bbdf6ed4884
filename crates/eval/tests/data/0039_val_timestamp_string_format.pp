$t = Timestamp('2020-03-04T05:06:07Z')
notice($t.strftime('%H-%M-%S'))
