# A debconf answer removed, and one set as a boolean.
debconf { 'unattended-upgrades/enable_auto_updates':
  type  => 'boolean',
  value => 'true',
}
debconf { 'mrtest/obsolete-question':
  ensure => absent,
}
