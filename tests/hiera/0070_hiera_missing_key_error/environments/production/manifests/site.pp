notify { 'mrtest-k': message => hiera('mrtest::k') }
notify { 'mrtest-missing': message => hiera('mrtest::no_such_key') }
