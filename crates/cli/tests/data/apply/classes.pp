# Refresh through a class: a change inside it refreshes its subscribers.
class mrtest_app {
  file { '/tmp/mrtest-apply': ensure => directory }
  file { '/tmp/mrtest-apply/app.conf': content => "debug = false\n" }
}
class mrtest_service {
  exec { 'mrtest-apply-restart':
    command     => '/bin/echo restarted',
    refreshonly => true,
    logoutput   => true,
  }
}
include mrtest_app
include mrtest_service
Class['mrtest_app'] ~> Class['mrtest_service']
