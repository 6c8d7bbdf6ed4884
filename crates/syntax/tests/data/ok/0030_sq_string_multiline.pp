$a = 'line one
line two
  line three'
notice($a)
