User { shell => '/bin/false' }
@user { 'mrtest-vd': uid => 4301 }
realize(User['mrtest-vd'])
