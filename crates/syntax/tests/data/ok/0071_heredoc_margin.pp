$a = @(END)
    indented text
      more indented
    | END
notice($a)
