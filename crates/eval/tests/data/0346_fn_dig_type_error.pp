$d = {a => 'str'}
notice($d.dig('a', 'b'))
