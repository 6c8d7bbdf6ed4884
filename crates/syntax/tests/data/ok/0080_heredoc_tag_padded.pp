$a = @( END )
content
END
notice($a)
