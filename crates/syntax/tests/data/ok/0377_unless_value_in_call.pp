notice(unless true { 1 })
