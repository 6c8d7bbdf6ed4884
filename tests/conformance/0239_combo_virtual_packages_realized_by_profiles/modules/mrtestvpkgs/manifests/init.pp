class mrtestvpkgs {
  @package { 'mrtest-gcc': ensure => installed, tag => 'mrtest_build' }
  @package { 'mrtest-make': ensure => installed, tag => 'mrtest_build' }
  @package { 'mrtest-strace': ensure => installed, tag => 'mrtest_debug' }
  @package { 'mrtest-tcpdump': ensure => installed, tag => 'mrtest_debug' }
}
