function mrtestfns::greet(String $who) >> String {
  "hello, ${who}"
}
