notify { 'mrtest-env-zero': }
