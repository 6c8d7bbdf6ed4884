notice(String([1, 2], '%s'))
notice(String([1, 'a'], '%p'))
notice(String('abc', '%p'))
notice(String({a => 1}, '%p'))
