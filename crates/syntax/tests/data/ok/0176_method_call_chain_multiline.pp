$r = [3, 1, 2]
  .sort
  .map |$x| { $x + 1 }
  .join(',')
notice($r)
