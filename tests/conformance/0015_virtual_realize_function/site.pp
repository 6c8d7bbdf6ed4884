@user { 'mrtest-alice': ensure => present, uid => 4101 }
@user { 'mrtest-bob': ensure => present, uid => 4102 }
@user { 'mrtest-carol': ensure => present, uid => 4103 }
realize(User['mrtest-alice'])
