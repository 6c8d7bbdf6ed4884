sh "$(dirname "$0")/package.sh" purge mrtest-pkg-dpkg
sh "$(dirname "$0")/package.sh" purge mrtest-pkg-apt
