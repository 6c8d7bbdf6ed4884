$t = Array[Integer][1]
notice($t)
