$p = lookup('mrtest::packages', Array, undef)
notify { 'mrtest-packages': message => "${p}" }
