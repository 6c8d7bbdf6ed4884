notice(mrtest_legacy())
