alternatives { 'mrtest-alt': path => '/bin/false' }
