notify { 'mrtest-default': message => lookup('mrtest::k', String, 'first', 'default used: no data at all') }
