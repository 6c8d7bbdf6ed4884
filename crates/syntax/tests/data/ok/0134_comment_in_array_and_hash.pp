$a = [
  1, # one
  /* two */ 2,
]
$h = {
  # key
  'a' => 1,
}
notice($a, $h)
