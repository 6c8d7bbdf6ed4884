# The package is installed; the dpkg provider removes it.
package { 'mrtest-pkg-dpkg':
  ensure   => absent,
  provider => dpkg,
}
