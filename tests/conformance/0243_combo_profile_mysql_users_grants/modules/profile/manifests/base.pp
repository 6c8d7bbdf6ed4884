class profile::base {
  package { 'mrtest-base-tools': ensure => installed }
}
