notice(new(String, 5))
notice(Array.new('abc', true))
notice(Hash.new([k, v]))
notice(Boolean.new('false'))
