$outer = 'o'
class c {
  $inner = 'i'
  notice("c sees ${outer}")
}
include c
notice("top sees [${inner}]")
