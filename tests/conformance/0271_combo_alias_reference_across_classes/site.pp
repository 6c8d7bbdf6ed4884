class mrtest_cfgfiles {
  file { '/tmp/mrtest-very/long/path/app.yml':
    ensure => file,
    alias  => 'mrtest-app-config',
  }
}
class mrtest_svcs {
  service { 'mrtest-app': subscribe => File['mrtest-app-config'] }
}
include mrtest_cfgfiles, mrtest_svcs
