$a = 'no\nnewline\there \$x \u0041'
notice($a)
