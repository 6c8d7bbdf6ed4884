notice('1.0' == 1)
notice('01' == '1')
notice(1 in ['1'])
