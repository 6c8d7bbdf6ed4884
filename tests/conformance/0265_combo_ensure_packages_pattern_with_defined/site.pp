define mrtest_ensure_pkg () {
  if !defined(Package[$title]) {
    package { $title: ensure => installed }
  }
}
class profile::x { mrtest_ensure_pkg { ['mrtest-git', 'mrtest-rsync']: } }
class profile::y { package { 'mrtest-git': ensure => installed } }
include profile::y
include profile::x
