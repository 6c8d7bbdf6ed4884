# The volume set as a user the system does not know: Puppet's child says
# so and exits 1, which fails the change.
mrtest_chime { 'bell':
  volume => '2',
  ringer => 'mrtest-nobody-here',
}
