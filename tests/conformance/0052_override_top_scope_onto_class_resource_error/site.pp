class mrtest_cls {
  notify { 'mrtest-from-class': message => 'class value' }
}
include mrtest_cls
Notify['mrtest-from-class'] { message => 'top value' }
