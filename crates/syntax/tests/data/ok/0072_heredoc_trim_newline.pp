$a = @(END)
no trailing newline
-END
notice($a)
