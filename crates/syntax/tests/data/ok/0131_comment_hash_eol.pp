# leading comment
$x = 1 # trailing comment
notice($x) #no space
