$x = 12abc
