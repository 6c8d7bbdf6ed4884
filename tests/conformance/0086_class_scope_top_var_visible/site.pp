$mrtest_top = 'top value'
class mrtest_sees {
  notify { 'mrtest-sees': message => "${mrtest_top} / ${::mrtest_top}" }
}
include mrtest_sees
