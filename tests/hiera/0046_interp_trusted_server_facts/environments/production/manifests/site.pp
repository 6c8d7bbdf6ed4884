['mrtest::level', 'mrtest::env_level', 'mrtest::trusted', 'mrtest::trusted_top', 'mrtest::trusted_extensions',
 'mrtest::server_facts', 'mrtest::environment', 'mrtest::clientcert', 'mrtest::facts_clientcert'].each |$k| {
  notify { $k: message => lookup($k) }
}
