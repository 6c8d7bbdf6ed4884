unless true { notice(1) } elsif false { notice(2) }
