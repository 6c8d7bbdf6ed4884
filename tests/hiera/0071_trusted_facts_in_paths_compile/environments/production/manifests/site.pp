['mrtest::node_level', 'mrtest::domain_level', 'mrtest::virtual_level', 'mrtest::who'].each |$k| {
  notify { $k: message => lookup($k) }
}
notify { 'mrtest trusted': message => "${trusted}" }
