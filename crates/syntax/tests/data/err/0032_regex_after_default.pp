$b = default /2/ 2
