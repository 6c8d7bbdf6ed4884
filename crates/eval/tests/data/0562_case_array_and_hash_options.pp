case 3 {
  [String, Integer]: { notice('an array option does not match a non-array') }
  default: { notice('default') }
}
case [3, 'a'] {
  [String, Integer]: { notice('wrong order') }
  [Integer, String]: { notice('element-wise types') }
}
case [3, 'abc'] {
  [Integer]: { notice('too short') }
  [Integer, /b(c)/]: { notice("regex element, \$1 is ${1}") }
}
case [[1, 2], 'x'] {
  [[Integer, Integer], 'X']: { notice('nested, strings compared without case') }
}
case { 'a' => 1, 'b' => 'two', 'c' => 3 } {
  { 'a' => String }: { notice('wrong') }
  { 'a' => Integer, 'b' => /tw/ }: { notice('hash option matches by key') }
}
case { 'a' => 1 } {
  { 'z' => Undef }: { notice('a missing key is undef') }
}
case 3 {
  String, Integer: { notice('list of options') }
}
$ts = [Float, Integer]
case 3 {
  *$ts: { notice('splat of types') }
}
$r = [1, 2] ? {
  [Integer, Integer] => 'selector matches element-wise too',
  default => 'no',
}
notice($r)
