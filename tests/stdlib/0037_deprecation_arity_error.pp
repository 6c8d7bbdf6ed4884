deprecation('mrtest_key')
