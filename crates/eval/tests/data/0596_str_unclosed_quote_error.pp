notice("a
b
c)
