$keys = [
  'mrtest::mail_domain',
  'mrtest::smtp_host',
  'mrtest::port_string',
  'mrtest::servers_string',
  'mrtest::settings_string',
  'mrtest::in_array',
  'mrtest::in_keys',
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
