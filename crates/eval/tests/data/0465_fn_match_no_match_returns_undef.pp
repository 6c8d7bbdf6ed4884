$m = 'abc'.match(/z/)
notice(type($m))
