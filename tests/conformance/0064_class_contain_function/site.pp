class mrtest_inner1 { notify { 'mrtest-inner1': } }
class mrtest_inner2 { notify { 'mrtest-inner2': } }
class mrtest_wrapper {
  contain mrtest_inner1
  contain 'mrtest_inner2'
  notify { 'mrtest-wrapper': }
}
include mrtest_wrapper
notify { 'mrtest-after-wrapper': require => Class['mrtest_wrapper'] }
