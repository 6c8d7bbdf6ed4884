notice("[${undef}] [${true}] [${false}]")
$n = undef
notice("n=${n}.")
