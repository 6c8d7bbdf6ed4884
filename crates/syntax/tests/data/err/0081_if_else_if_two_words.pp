if false { notice(1) } else if true { notice(2) }
