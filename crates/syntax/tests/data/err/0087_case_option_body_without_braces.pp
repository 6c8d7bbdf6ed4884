case 1 {
  1: notice(1)
}
