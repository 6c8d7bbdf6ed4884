notice([1, 'a'] =~ Tuple[Integer, String])
notice([1, 'a', 'b'] =~ Tuple[Integer, String])
notice([1, 'a', 'b'] =~ Tuple[Integer, String, 1, 5])
notice([1] =~ Tuple[Integer, String, 1])
