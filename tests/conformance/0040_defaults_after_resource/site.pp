notify { 'mrtest-before-default': }
Notify { message => 'default declared afterwards' }
notify { 'mrtest-after-default': }
