notice(1 and 2)
notice(undef or 'x')
notice('' and 0)
