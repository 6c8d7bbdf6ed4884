$h = { 'a' => attr, 'b' => private }
notice($h)
