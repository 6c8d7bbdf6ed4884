$f = |Integer $x| { $x }
notice($f =~ Callable)
notice($f =~ Callable[Integer])
notice($f =~ Callable[String])
notice($f =~ Callable[0, 0])
