notice(['', ' ', 'x'])
notice(String(['', undef]))
