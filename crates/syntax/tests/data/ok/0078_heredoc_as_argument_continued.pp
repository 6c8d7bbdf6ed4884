$a = sprintf(@(END), 'x')
value %s
END
notice($a)
