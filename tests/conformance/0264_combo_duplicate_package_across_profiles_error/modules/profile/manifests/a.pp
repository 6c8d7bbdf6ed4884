class profile::a {
  package { 'mrtest-git': ensure => installed }
}
