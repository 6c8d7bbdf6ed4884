[[1, 2]].each |$row| {
  $row.each |$cell| { notice($cell) }
}
