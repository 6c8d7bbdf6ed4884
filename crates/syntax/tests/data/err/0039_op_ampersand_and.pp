$x = true && false
