$a = @(END/r)
line\r
END
notice($a)
