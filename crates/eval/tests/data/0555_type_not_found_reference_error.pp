notify { 'a': require => Nosuch['x'] }
