class foo(
  String $required,
  $other = 1,
) {
  notice($required)
}
