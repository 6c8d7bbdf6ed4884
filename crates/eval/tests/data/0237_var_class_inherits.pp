class base { $v = 'base-v' }
class child inherits base { notice("child sees ${v}") }
include child
