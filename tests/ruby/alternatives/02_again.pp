alternatives { 'mrtest-alt': path => '/bin/true' }
