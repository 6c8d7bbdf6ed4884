$d = {a => 'str'}
notice($d.get('a.1'))
