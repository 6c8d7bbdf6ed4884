notice(Integer[1, 2] == Integer[1, 2])
notice(Integer[1, 2] == Integer[1, 3])
notice(Integer == Integer[default, default])
notice(Array[Integer] != Array[String])
