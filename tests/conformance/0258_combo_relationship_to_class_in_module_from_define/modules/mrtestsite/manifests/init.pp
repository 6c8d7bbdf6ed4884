class mrtestsite {
  file { '/tmp/mrtest-site-root': ensure => directory }
}
