notice(assert_type(Integer))
