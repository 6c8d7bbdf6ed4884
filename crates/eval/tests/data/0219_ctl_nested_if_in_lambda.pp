[1, 2, 3, 4].each |$i| {
  if $i % 2 == 0 { notice("${i} even") } else { notice("${i} odd") }
}
