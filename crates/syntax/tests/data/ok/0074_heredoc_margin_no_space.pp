$a = @(END)
  text
  |-END
notice($a)
