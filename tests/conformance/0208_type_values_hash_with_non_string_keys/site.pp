notify { 'mrtest-int-keys': message => { 1 => 'one', 2 => 'two' } }
