class mrtest_twice (Integer $n = 1) { }
class { 'mrtest_twice': n => 1 }
class { 'mrtest_twice': n => 2 }
