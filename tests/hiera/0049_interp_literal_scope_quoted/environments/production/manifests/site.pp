['mrtest::percent', 'mrtest::literal_braces', 'mrtest::scope_fact', 'mrtest::scope_dotted', 'mrtest::dotted_fact',
 'mrtest::dotted_sub_key', 'mrtest::dotted_sub_key_unquoted', 'mrtest::quoted_all', 'mrtest::dotted_lookup'].each |$k| {
  notify { $k: message => lookup($k) }
}
