notice($name)
notice($title)
class c { notice("${name} ${title}") }
include c
