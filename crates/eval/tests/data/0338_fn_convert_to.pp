notice('42'.convert_to(Integer))
notice(convert_to(3, String))
notice(['a', 1].convert_to(Array) == ['a', 1])
notice('yes'.convert_to(Boolean))
