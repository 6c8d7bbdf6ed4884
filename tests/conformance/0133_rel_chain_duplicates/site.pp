notify { 'mrtest-x': }
notify { 'mrtest-y': require => Notify['mrtest-x'] }
Notify['mrtest-x'] -> Notify['mrtest-y']
Notify['mrtest-x'] -> Notify['mrtest-y']
