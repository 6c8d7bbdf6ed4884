notice(assert_type(5, 5))
