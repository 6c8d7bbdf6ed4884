class mrtest_known (String $a = 'x') { }
class { 'mrtest_known': b => 'y' }
