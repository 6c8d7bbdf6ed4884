type mymod::port = Integer
