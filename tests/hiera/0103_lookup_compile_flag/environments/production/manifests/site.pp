$mrtest_role = 'web'
notify { 'mrtest-packages': message => "${lookup('mrtest::packages')}" }
