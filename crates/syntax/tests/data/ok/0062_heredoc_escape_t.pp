$a = @(END/t)
col1\tcol2
END
notice($a)
