function mymod::pair(String $a) >> Tuple[String, String] {
  [$a, $a]
}
