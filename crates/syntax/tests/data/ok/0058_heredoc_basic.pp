$a = @(END)
  This text is literal: $x and \n stay as is.
  END
notice($a)
