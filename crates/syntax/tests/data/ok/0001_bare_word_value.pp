$x = hello_world
notice($x)
