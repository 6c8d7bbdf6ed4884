$a = @("END:json")
text
END
