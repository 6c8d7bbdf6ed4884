$x = 5
notice(-$x)
notice(- -$x)
notice(-'3')
