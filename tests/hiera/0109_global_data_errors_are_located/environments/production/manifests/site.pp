notify { 'mrtest-global': message => lookup('mrtest::a') }
