class profile::b {
  package { 'mrtest-git': ensure => latest }
}
