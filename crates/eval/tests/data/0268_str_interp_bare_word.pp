$a = 'value of a'
notice("${a}")
notice("${a}s")
notice("$a")
