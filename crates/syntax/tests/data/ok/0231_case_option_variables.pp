$a = 1
case 1 {
  $a: { notice('a') }
  undef: {}
  default: {}
}
