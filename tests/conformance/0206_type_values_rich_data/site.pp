notify { 'mrtest-type-value': message => Integer[1, 5] }
notify { 'mrtest-regexp-value': message => /^mrtest.*$/ }
notify { 'mrtest-default-value': message => default }
notify { 'mrtest-ref-value': message => File['/tmp/mrtest-x'] }
notify { 'mrtest-ts-value': message => Timestamp('2024-01-02T03:04:05.000Z') }
notify { 'mrtest-binary-value': message => Binary('bXJ0ZXN0', '%B') }
