notice(Integer.name)
notice(Array[String].name)
