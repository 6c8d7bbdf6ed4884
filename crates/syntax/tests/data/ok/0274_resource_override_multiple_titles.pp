File['a', 'b'] { mode => '0600' }
