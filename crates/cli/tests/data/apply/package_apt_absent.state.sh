sh "$(dirname "$0")/package-state.sh" mrtest-pkg-apt
