$d = {a => {b => [10, {c => 'deep'}]}}
notice($d.dig('a', 'b', 1, 'c'))
notice($d.dig('a', 'x', 'y'))
notice(dig($d, 'a', 'b', 0))
