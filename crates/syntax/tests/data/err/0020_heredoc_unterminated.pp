$a = @(END)
some text
EN
