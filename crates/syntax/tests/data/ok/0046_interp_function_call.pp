notice("abs: ${abs(-1)}")
