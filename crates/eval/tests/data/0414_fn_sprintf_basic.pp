notice(sprintf('%d items', 5))
notice(sprintf('%05.2f', 3.14159))
notice(sprintf('%s and %s', 'a', 'b'))
notice(sprintf('%x %o %b', 255, 8, 5))
