$name = 'world'
$t = @("END")
  hello ${name}
  sum ${1 + 1}
  | END
notice($t)
