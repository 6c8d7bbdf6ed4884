notice(sprintf('%<a>s', {b => 1}))
