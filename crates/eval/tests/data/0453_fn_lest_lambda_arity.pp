notice(lest(undef) || { 1 + 1 })
