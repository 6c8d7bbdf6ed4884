$x = 1
notice("${ $x /* c */ + 1 }")
