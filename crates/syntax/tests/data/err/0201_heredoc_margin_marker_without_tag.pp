$a = @(END)
text
|
