$h = { type => 'x', function => 'f' }
notice(type => 'y')
