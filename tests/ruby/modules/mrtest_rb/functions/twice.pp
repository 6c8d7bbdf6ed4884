function mrtest_rb::twice(String $text) >> String {
  "${text}${text}"
}
