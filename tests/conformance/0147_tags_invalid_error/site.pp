notify { 'mrtest-badtag': tag => 'has space' }
