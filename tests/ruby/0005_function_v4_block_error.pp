notice(mrtest_rb::each_pair({ 'a' => 1 }))
