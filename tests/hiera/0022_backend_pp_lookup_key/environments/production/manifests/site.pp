notify { 'mrtest-kv':
  message => "host=${lookup('mrtest::db_host')} port=${lookup('mrtest::db_port')} cached=${lookup('mrtest::cached')}/${lookup('mrtest::cached')}",
}
