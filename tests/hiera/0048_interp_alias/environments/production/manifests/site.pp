$keys = [
  'mrtest::chrony_servers',
  'mrtest::account_defaults',
  'mrtest::ssh_port',
  'mrtest::ssh_enabled',
  'mrtest::alias_in_array',
  'mrtest::alias_in_hash',
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
