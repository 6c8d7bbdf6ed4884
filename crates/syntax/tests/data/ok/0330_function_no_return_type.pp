function mymod::add($a, $b = 1) {
  $a + $b
}
