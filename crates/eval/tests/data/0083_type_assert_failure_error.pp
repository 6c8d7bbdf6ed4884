assert_type(Integer, 'five')
