notify { 'mrtest-upper': tag => ['MrTest_Mixed', 'UPPER'] }
class mrtest_upper_cls {
  tag 'MrTest_Class_Tag'
  notify { 'mrtest-upper-in-class': }
}
include mrtest_upper_cls
