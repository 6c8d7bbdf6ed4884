# A package file built by the setup script, installed by the dpkg provider.
package { 'mrtest-pkg-dpkg':
  ensure   => installed,
  provider => dpkg,
  source   => '/tmp/mrtest-pkg/mrtest-pkg-dpkg_1.0_all.deb',
}
