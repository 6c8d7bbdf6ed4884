user {
  ['alice', 'bob']: ensure => present;
  'carol': ensure => absent;
}
