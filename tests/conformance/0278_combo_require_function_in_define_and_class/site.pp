class mrtest_runtime { package { 'mrtest-runtime': } }
define mrtest_job (String $schedule = 'hourly') {
  require mrtest_runtime
  file { "/tmp/mrtest-jobs/${title}": content => $schedule }
}
mrtest_job { ['index', 'report']: }
