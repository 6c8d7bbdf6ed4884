notify { 'mrtest-nofile': message => file('mrteststatic3/nope.txt') }
