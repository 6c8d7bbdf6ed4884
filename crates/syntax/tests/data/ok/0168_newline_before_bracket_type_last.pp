$t = Integer
[1, 2]
