class profile::apps {
  File {
    owner => 'mrtest-app',
    group => 'mrtest-app',
  }
  Exec { path => ['/usr/bin', '/bin'] }
  mrtestapp::instance { 'billing': port => 9001 }
  mrtestapp::instance { 'search': port => 9002, enabled => false }
}
