notify { 'mrtest-dup': message => 'first' }
notify { 'mrtest-dup': message => 'second' }
