class mrtest_source {
  $value = 'shared value'
}
class mrtest_reader {
  include mrtest_source
  notify { 'mrtest-reader': message => $mrtest_source::value }
}
include mrtest_reader
