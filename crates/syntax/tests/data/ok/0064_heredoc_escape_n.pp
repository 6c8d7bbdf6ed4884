$a = @(END/n)
a\nb
END
notice($a)
