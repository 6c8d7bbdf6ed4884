case 'b' {
  'a', 'b', 'c': { notice('abc') }
  default: {}
}
