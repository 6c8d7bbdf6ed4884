class mrtest_pkgs {
  @package { 'mrtest-curl': ensure => installed }
}
class mrtest_other {
  @package { 'mrtest-wget': ensure => installed }
}
include mrtest_pkgs
include mrtest_other
Package <| tag == 'mrtest_pkgs' |>
