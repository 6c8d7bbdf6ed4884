notice(mrtest_rb::shout())
