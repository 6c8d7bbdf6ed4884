# No dispatcher accepts the arguments.
notice(mrtest_rb::shout(1))
