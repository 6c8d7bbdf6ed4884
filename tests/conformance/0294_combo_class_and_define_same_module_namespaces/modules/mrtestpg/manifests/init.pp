class mrtestpg (String $version = '15') {
  package { "mrtest-postgresql-${version}": }
  service { 'mrtest-postgresql': require => Package["mrtest-postgresql-${version}"] }
}
