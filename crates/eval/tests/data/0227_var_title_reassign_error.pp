class c { $title = 'x' }
include c
