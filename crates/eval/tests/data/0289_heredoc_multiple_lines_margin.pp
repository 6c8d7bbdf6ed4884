$t = @("END")
      a
    b
      c
    | END
notice($t)
