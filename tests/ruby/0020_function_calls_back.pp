notice(mrtest_rb::callback(Sensitive('s3cret')))
