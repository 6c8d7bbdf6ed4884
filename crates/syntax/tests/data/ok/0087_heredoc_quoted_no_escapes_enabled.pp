$a = @("END")
a\tb
END
notice($a)
