sh "$(dirname "$0")/package.sh" build mrtest-pkg-apt
