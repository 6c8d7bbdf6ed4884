define mrtest_part () { notify { "mrtest-part-${title}": } }
class mrtest_whole {
  mrtest_part { 'x': }
}
include mrtest_whole
