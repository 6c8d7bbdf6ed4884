$a = @(END:json)
{"key": [1, 2, 3]}
END
notice($a)
