# The package is installed; the dpkg provider purges it, configuration
# files included.
package { 'mrtest-pkg-dpkg':
  ensure   => purged,
  provider => dpkg,
}
