$a = @(END)
