$mrtest_order = 'first'
notify { 'mrtest-env-first': }
