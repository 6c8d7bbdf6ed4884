Notify { message => 'top' }
class mrtest_lvl {
  Notify { message => 'class' }
  notify { 'mrtest-lvl-in': }
}
include mrtest_lvl
notify { 'mrtest-lvl-top': }
