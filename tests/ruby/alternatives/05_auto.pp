alternatives { 'mrtest-alt': mode => 'auto' }
