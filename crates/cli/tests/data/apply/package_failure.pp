# Package files that do not exist: both providers fail, each with the
# installer's own message.
package { 'mrtest-pkg-dpkg':
  ensure   => installed,
  provider => dpkg,
  source   => '/tmp/mrtest-pkg/missing.deb',
}
package { 'mrtest-pkg-apt':
  ensure   => installed,
  provider => apt,
  source   => '/tmp/mrtest-pkg/missing.deb',
}
