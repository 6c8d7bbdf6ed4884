notice('before')
notice(mrtest_rb::wrong('raise'))
