notify { 'mrtest-metatag-1': tag => 'mrtest_one' }
notify { 'mrtest-metatag-2': tag => ['mrtest_two', 'mrtest_three'] }
