[1].each |$x| { return(5) }
