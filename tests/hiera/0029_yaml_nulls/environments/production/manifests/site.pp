$keys = [
  'mrtest::nulls',
  'mrtest::array_with_nulls',
  'mrtest::tilde',
  'mrtest::empty',
]
$keys.each |$key| {
  $v = lookup($key)
  notify { "mrtest ${key}": message => "${type($v, 'generalized')} ${v}" }
  if $v =~ Hash {
    $v.each |$k, $x| {
      notify { "mrtest ${key} [${k}]": message => "key ${type($k, 'generalized')} value ${type($x, 'generalized')} ${x}" }
    }
  } elsif $v =~ Array {
    $v.each |$i, $x| {
      notify { "mrtest ${key} [${i}]": message => "${type($x, 'generalized')} ${x}" }
    }
  }
}
notify { 'mrtest tilde with default': message => String(lookup('mrtest::tilde', Optional[String], 'first', 'the default')) }
notify { 'mrtest empty with default': message => String(lookup('mrtest::empty', undef, undef, 'the default')) }
