notice({a => 1} =~ Hash[String, Integer])
notice({1 => 1} =~ Hash[String, Integer])
notice({a => 1, b => 2} =~ Hash[String, Integer, 1, 1])
notice({} =~ Hash)
