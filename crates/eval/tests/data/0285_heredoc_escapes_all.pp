$t = @("END"/L)
  joined \
  line
  | END
notice($t)
