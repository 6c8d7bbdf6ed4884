define mrtest_dirs (String $mode = '0755') {
  file { "/tmp/mrtest-dirs/${title}": ensure => directory, mode => $mode }
}
mrtest_dirs { ['logs', 'cache', 'run']: mode => '0750' }
