$a = 'say "hi"'
notice($a)
