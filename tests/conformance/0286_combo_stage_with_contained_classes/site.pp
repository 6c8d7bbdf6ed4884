stage { 'mrtest_last': }
Stage['main'] -> Stage['mrtest_last']
class mrtest_report {
  contain mrtest_report::collect
  contain mrtest_report::send
  Class['mrtest_report::collect'] -> Class['mrtest_report::send']
}
class mrtest_report::collect { notify { 'mrtest-collect': } }
class mrtest_report::send { notify { 'mrtest-send': } }
class { 'mrtest_report': stage => 'mrtest_last' }
notify { 'mrtest-main-work': }
