$x = 'top'
class c { notice($::x) notice($x) }
include c
