file { '/tmp/mrtest-src':
  ensure => file,
  source => 'puppet:///modules/mrtestsrc/thing.conf',
}
