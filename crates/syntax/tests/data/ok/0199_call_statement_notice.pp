notice 'x'
notice 'a', 'b'
