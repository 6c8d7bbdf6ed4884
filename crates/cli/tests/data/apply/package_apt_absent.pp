# The package is installed; the apt provider removes it.
package { 'mrtest-pkg-apt':
  ensure   => absent,
  provider => apt,
}
