class mrtest_cref { notify { 'mrtest-cref': } }
class mrtest_cwrap {
  contain Class['mrtest_cref']
}
include mrtest_cwrap
