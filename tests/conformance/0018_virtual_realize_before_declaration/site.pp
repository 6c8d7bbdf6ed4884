realize(Notify['mrtest-later'])
@notify { 'mrtest-later': message => 'declared after realize' }
