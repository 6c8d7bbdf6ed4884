$t = Hash[String, Integer]
notice($t)
