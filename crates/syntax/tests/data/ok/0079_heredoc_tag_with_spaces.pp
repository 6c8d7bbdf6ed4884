$a = @(END OF TEXT)
content
END OF TEXT
notice($a)
