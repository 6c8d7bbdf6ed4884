if true {
  notice(1)
}
else {
  notice(2)
}
