$a = @(END/)
a\tb\\c
END
notice($a)
