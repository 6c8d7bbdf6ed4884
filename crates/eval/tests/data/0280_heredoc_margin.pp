$t = @(END)
    indented
      more indented
    | END
notice($t)
