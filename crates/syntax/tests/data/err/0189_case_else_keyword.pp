case 1 {
  1: { }
  else: { }
}
