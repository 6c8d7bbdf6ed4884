type MyT = Variant[String, Nosuch]
notice(1 =~ MyT)
