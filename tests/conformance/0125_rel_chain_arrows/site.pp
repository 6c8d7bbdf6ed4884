notify { 'mrtest-c1': }
notify { 'mrtest-c2': }
notify { 'mrtest-c3': }
notify { 'mrtest-c4': }
notify { 'mrtest-c5': }
Notify['mrtest-c1'] -> Notify['mrtest-c2']
Notify['mrtest-c2'] ~> Notify['mrtest-c3']
Notify['mrtest-c5'] <- Notify['mrtest-c4']
Notify['mrtest-c1'] <~ Notify['mrtest-c5']
