$b = foo /2/ 2
