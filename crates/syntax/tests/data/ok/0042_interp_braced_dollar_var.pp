$name = 'world'
notice("hello ${$name}")
