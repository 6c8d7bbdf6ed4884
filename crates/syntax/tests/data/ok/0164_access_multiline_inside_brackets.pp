$a = [1, 2]
$b = $a[
  0
]
notice($b)
