sh "$(dirname "$0")/package.sh" purge mrtest-pkg-known-two
sh "$(dirname "$0")/package.sh" purge mrtest-pkg-known
