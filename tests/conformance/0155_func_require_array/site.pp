class mrtest_ra { }
class mrtest_rb { }
class mrtest_rc {
  require ['mrtest_ra', 'mrtest_rb']
  notify { 'mrtest-rc': }
}
include mrtest_rc
