$a = @(END)
ENDING is not the end
 END x is not either
END
notice($a)
