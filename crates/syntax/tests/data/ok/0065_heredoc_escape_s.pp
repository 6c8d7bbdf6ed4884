$a = @(END/s)
a\sb
END
notice($a)
