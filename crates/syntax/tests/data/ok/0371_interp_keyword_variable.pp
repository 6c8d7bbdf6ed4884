$class = 'c'
notice("${class} and $class")
