$m = lookup('mrtest::uid_map')
$m.each |$k, $v| {
  notify { "mrtest uid ${k}": message => "${type($k, 'generalized')} ${k} => ${v}" }
}
notify { 'mrtest uid 4001 by integer': message => String($m[4001]) }
notify { 'mrtest uid 4001 by string': message => String($m['4001']) }
notify { 'mrtest sysctl keys': message => String(lookup('mrtest::sysctl').keys) }
