class c { $name = 'x' }
include c
