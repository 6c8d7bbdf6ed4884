notice(chop('abc'))
notice("[${chop("ab\r\n")}]")
notice("[${chop('')}]")
notice(chop(['xy', 'z']))
