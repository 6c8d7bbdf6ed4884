class profile::cleanup (String $dir = '/tmp/mrtest-cleanup') {
  schedule { 'mrtest-weekly': period => weekly, range => '1-5' }
  file { $dir: ensure => directory }
  tidy { $dir:
    age      => '2w',
    recurse  => true,
    schedule => 'mrtest-weekly',
    require  => File[$dir],
  }
}
include profile::cleanup
