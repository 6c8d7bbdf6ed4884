notice(upcase([['a'], {'b' => ['c']}]))
