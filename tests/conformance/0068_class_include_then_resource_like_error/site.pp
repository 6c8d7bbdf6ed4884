class mrtest_order (Integer $n = 1) { }
include mrtest_order
class { 'mrtest_order': n => 2 }
