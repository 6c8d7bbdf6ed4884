function first_even(Array[Integer] $a) {
  $a.each |$x| {
    if $x % 2 == 0 { return($x) }
  }
  'none'
}
notice(first_even([1, 3, 4, 6]))
notice(first_even([1, 3]))
