$a = 'file'
notice("$a.txt")
