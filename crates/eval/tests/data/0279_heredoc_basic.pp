$t = @(END)
  line one
  line two
  END
notice($t)
