notify { 'mrtest-sub-a-z': }
