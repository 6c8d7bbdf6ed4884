$h = { 'a' => { 'b' => 'c' } }
notice($h['a']['b'])
