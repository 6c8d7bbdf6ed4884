notify { 'mrtest-sub-c': }
