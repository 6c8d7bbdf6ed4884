notice(mrtest_rb::nonexistent(1))
