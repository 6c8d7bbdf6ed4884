$v = lookup('mrtest::symbol_keys')
notify { 'mrtest symbol keys': message => "${type($v, 'generalized')} ${v}" }
notify { 'mrtest symbol top key': message => lookup('mrtest::symbol_top_key') }
