$t = @("END"/tn)
  a\tb\nc \$x
  | END
notice($t)
