if true {
  if false { notice(1) } else { notice(2) }
}
