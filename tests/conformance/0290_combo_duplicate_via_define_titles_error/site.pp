define mrtest_dirpair () {
  file { "/tmp/mrtest-pair-${title}": ensure => directory }
  file { '/tmp/mrtest-pair-shared': ensure => directory }
}
mrtest_dirpair { ['a', 'b']: }
