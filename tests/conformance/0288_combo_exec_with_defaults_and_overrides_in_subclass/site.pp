class mrtest_jobs {
  Exec { path => '/usr/bin:/bin', logoutput => true }
  exec { 'mrtest-job-a': command => 'true' }
  exec { 'mrtest-job-b': command => 'false', returns => [1] }
}
class mrtest_jobs::quiet inherits mrtest_jobs {
  Exec['mrtest-job-a'] { logoutput => false }
  Exec['mrtest-job-b'] { returns +> [2] }
}
include mrtest_jobs::quiet
