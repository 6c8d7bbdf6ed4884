define mrtest_needs_file () {
  notify { "mrtest-nf-${title}": require => File['/tmp/mrtest-lazy-file'] }
}
mrtest_needs_file { 'a': }
file { '/tmp/mrtest-lazy-file': ensure => file }
