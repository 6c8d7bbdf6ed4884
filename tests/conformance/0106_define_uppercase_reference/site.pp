define mrtest::deep::thing () {
  notify { "mrtest-deep-${title}": }
}
mrtest::deep::thing { 'a': }
notify { 'mrtest-deep-after': require => Mrtest::Deep::Thing['a'] }
