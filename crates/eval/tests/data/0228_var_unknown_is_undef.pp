notice($nope)
notice($nope =~ Undef)
notice("[${nope}]")
