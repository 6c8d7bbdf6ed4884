# A package file built by the setup script, installed by the apt provider.
package { 'mrtest-pkg-apt':
  ensure   => installed,
  provider => apt,
  source   => '/tmp/mrtest-pkg/mrtest-pkg-apt_1.0_all.deb',
}
