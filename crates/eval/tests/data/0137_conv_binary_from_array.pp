notice(Binary([104, 105]))
notice(String(Binary([104, 105]), '%s'))
