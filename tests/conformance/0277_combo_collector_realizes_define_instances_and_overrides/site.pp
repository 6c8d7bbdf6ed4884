define mrtest_vdir (String $mode = '0755') {
  file { "/tmp/mrtest-vdir-${title}": ensure => directory, mode => $mode }
}
@mrtest_vdir { 'cache': }
@mrtest_vdir { 'spool': mode => '0700' }
@mrtest_vdir { 'unused': }
Mrtest_vdir <| title == 'cache' or title == 'spool' |>
