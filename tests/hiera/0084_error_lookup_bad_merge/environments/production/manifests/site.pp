$p = lookup('mrtest::packages', Array, 'bogus')
notify { 'mrtest-packages': message => "${p}" }
