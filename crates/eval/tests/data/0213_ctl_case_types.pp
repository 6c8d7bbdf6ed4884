$vals = [1, 'x', [1], 2.5, undef]
$vals.each |$v| {
  case $v {
    Integer: { notice("int ${v}") }
    String: { notice("str ${v}") }
    Array: { notice('array') }
    Undef: { notice('undef') }
    default: { notice("other ${v}") }
  }
}
