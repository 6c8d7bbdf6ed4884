sh "$(dirname "$0")/package.sh" build mrtest-pkg-apt
dpkg -i /tmp/mrtest-pkg/mrtest-pkg-apt_1.0_all.deb >/dev/null
