notify { 'mrtest-sub-b': }
