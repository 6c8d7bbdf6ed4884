$a = @(END)
END
notice($a)
