$b = true / 2
