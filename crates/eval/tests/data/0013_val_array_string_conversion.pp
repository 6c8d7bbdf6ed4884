$a = [1, 'x', [2, 'y'], {k => 'v'}]
notice("${a}")
notice(String($a))
notice($a)
