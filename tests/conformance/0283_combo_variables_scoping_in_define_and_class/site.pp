$mrtest_env = 'top'
class mrtest_scopecls {
  $mrtest_env = 'class-local'
  mrtest_scopedef { 'd': }
  notify { 'mrtest-scope-class': message => "${mrtest_env} ${::mrtest_env}" }
}
define mrtest_scopedef () {
  notify { "mrtest-scope-def-${title}": message => "${mrtest_env} ${mrtest_scopecls::mrtest_env}" }
}
include mrtest_scopecls
