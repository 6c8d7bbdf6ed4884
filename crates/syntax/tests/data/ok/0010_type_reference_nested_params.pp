$t = Hash[String, Array[Variant[Integer, Enum['a', 'b']]]]
notice($t)
