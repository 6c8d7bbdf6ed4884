$a = @(END:json/tsn)
{"key":\t"value"}\n
END
notice($a)
