class profile::needs_missing {
  service { 'mrtest-orphan': require => Package['mrtest-never-declared'] }
}
