$name = 'world'
notice("hello ${name}s")
