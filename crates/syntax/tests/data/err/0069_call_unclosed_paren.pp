notice('x'
