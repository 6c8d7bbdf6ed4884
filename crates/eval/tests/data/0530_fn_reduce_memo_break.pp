# break returns the memo the breaking step was given.
$h = [1, 2, 3, 4].reduce({}) |$memo, $i| {
  if $i == 3 { break() }
  $memo + { "k${i}" => $i }
}
notice($h)
