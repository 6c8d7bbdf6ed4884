#!/usr/bin/env bash
# Records what the real `puppet apply` does with the steps of this
# directory (run-steps.sh says how): NN_name.out, .state and .gets here,
# which crates/cli/tests/http_sources.rs compares Marionette's with.
# Usage: tests/http-sources/record.sh (Debian's puppet, python3, openssl).
set -euo pipefail
cd "$(dirname "$0")"
command -v puppet >/dev/null || { echo "record.sh needs puppet: apt-get install -y puppet" >&2; exit 1; }
./run-steps.sh . puppet apply --color=false
