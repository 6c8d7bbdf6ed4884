$a = "it\'s"
notice($a)
