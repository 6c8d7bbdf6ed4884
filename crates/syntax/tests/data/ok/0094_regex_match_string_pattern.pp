notice('abc' =~ 'b')
