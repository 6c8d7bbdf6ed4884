notice(default)
notice([default, 1])
notice("${default}")
