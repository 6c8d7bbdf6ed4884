if 'x' =~ /x/ { notice($0) }
