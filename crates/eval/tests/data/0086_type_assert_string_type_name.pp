notice(assert_type('Integer[1,3]', 2))
