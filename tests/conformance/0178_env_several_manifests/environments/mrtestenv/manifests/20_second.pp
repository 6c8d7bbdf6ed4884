notify { 'mrtest-env-second': message => "after ${mrtest_order}" }
