notice("[${undef}]")
$b = true
notice("[${b}] [${!$b}]")
$n = undef
notice("n=${n}.")
