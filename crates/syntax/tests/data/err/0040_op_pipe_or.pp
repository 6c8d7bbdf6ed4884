$x = true || false
