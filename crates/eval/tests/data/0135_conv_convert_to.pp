notice('12'.convert_to(Integer))
notice(12.convert_to(String))
notice([[a, 1]].convert_to(Hash))
