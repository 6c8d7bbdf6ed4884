$my_var = 'v'
notice("${my_var}_x")
notice("$my_var-x")
notice("$my_var.x")
