sh "$(dirname "$0")/package.sh" build mrtest-pkg-dpkg
dpkg -i /tmp/mrtest-pkg/mrtest-pkg-dpkg_1.0_all.deb >/dev/null
