$b = 8 /* note */ / 2
notice($b)
