class mrtest_tq {
  tag 'mrtest_role_web'
  $t1 = tagged('mrtest_role_web')
  $t2 = tagged('mrtest_tq')
  $t3 = tagged('mrtest_nope')
  $t4 = tagged('class')
  notify { 'mrtest-tagged': message => "${t1} ${t2} ${t3} ${t4}" }
}
include mrtest_tq
