sh "$(dirname "$0")/package-state.sh" mrtest-pkg-known
sh "$(dirname "$0")/package-state.sh" mrtest-pkg-known-two
