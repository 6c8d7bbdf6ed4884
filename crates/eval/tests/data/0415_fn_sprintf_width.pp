notice(sprintf('[%-10s]', 'left'))
notice(sprintf('[%10s]', 'right'))
notice(sprintf('[%+d]', 5))
notice(sprintf('[%5.1f]', 2.25))
