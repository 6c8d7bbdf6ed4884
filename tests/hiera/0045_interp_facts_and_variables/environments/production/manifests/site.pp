$keys = [
  'mrtest::family_facts',
  'mrtest::family_legacy',
  'mrtest::first_cpu',
  'mrtest::whole_hash',
  'mrtest::integer_fact',
  'mrtest::ntp_servers',
  'mrtest::vhosts',
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
