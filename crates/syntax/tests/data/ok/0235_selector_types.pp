$y = 5 ? { String => 's', Integer => 'i', default => 'x' }
notice($y)
