notice(mrtest_rb::port('http'))
