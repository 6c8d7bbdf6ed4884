$t = @(END)
  no trailing newline
  |- END
notice("[${t}]")
