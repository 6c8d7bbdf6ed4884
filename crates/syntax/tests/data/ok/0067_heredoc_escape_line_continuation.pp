$a = @(END/L)
one long \
line
END
notice($a)
