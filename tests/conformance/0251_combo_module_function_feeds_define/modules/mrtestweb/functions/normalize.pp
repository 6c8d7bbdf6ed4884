function mrtestweb::normalize(Array[String] $names) >> Array[String] {
  $names.map |$n| { downcase($n) }.sort
}
