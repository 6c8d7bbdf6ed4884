class profile::base {
  file { '/tmp/mrtest-env-base': ensure => file }
}
