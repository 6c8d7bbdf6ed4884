notice({a => 1, 'b' => 'x'} =~ Hash[String, Variant[Integer, String]])
notice({a => 1} =~ Hash[Integer, Integer])
