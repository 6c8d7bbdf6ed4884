$a = @()
text

