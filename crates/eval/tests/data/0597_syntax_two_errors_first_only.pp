notice('one')
notice(1 +)
notice(2 +)
