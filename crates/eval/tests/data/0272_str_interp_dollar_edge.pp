notice("cost: $5")
notice("end $")
notice("a$-b")
notice('${not} interpolated')
