# mrtest-pkg-known installed, suggesting mrtest-pkg-known-two, whose
# package file is built but not installed.
here=$(dirname "$0")
sh "$here/package.sh" purge mrtest-pkg-known-two
sh "$here/package.sh" build mrtest-pkg-known mrtest-pkg-known-two
dpkg -i /tmp/mrtest-pkg/mrtest-pkg-known_1.0_all.deb >/dev/null
sh "$here/package.sh" build mrtest-pkg-known-two
