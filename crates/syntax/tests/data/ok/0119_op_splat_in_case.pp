$list = ['a', 'b']
case 'a' {
  *$list: { notice('in list') }
  default: {}
}
