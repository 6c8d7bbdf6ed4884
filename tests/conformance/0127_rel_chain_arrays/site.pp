notify { ['mrtest-left1', 'mrtest-left2', 'mrtest-right1', 'mrtest-right2']: }
[Notify['mrtest-left1'], Notify['mrtest-left2']] -> [Notify['mrtest-right1'], Notify['mrtest-right2']]
