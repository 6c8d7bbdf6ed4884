[1, 'two'].each |Integer $x| { notice($x) }
