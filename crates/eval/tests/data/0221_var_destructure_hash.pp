[$x, $y] = {x => 10, y => 20, z => 30}
notice($x)
notice($y)
