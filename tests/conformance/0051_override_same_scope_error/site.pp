notify { 'mrtest-same': message => 'original' }
Notify['mrtest-same'] { message => 'changed' }
