define mrtest::conf (String $content = 'x') {
  file { "/tmp/mrtest-conf-${title}": ensure => file, content => $content }
}
class mrtest_app {
  File { mode => '0640', group => 'mrtest-app' }
  mrtest::conf { 'app': content => 'app=1' }
}
include mrtest_app
mrtest::conf { 'top': }
