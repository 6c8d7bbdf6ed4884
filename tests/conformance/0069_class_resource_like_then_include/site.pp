class mrtest_order2 (Integer $n = 1) {
  notify { "mrtest-order2-${n}": }
}
class { 'mrtest_order2': n => 5 }
include mrtest_order2
