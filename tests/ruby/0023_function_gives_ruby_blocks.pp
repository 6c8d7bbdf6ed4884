notice(mrtest_rb::with_blocks({ 'a' => 1, 'b' => 'two' }))
notice(mrtest_rb::maybe_block('from puppet') |$t| { "${t} in a lambda" })
