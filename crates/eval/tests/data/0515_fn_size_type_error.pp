notice(size(true))
