function mymod::early(Integer $x) {
  if $x > 0 { return('pos') }
  'neg'
}
