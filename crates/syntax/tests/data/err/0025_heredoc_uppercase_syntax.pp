$a = @(END:Json)
text
END
