notify { 'mrtest-array': message => [1, 'two', [3, 4], { 'five' => 5 }] }
notify { 'mrtest-hash': message => { 'b' => 1, 'a' => { 'nested' => [true, false] }, 'c' => undef } }
notify { 'mrtest-empty': message => [] }
notify { 'mrtest-empty-hash': message => {} }
notify { 'mrtest-array-undef': message => [1, undef, 3] }
