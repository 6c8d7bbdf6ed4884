class mrtest_outer_t {
  tag 'mrtest_outer_only'
  include mrtest_inner_t
  notify { 'mrtest-outer-t': }
}
class mrtest_inner_t {
  notify { 'mrtest-inner-t': }
}
include mrtest_outer_t
