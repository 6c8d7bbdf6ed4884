$who = 'world'
$t = @("END")
  hello ${who}
  sum ${1 + 1}
  | END
notice($t)
