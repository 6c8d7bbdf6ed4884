$t = @("END")
  a\tb
  | END
notice($t)
