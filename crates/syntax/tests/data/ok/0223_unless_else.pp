unless 1 == 2 {
  notice('a')
} else {
  notice('b')
}
