class mrtest_dep { notify { 'mrtest-dep': } }
class mrtest_user {
  require mrtest_dep
  notify { 'mrtest-user': }
}
include mrtest_user
