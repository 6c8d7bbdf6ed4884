#!/usr/bin/env bash
# Records what the real `puppet apply` does with resources whose provider
# is not suitable when the run reaches them (tests/ruby/modules/mrtest_defer):
# put aside and applied once a later resource makes the provider suitable,
# or failed at the end of the run when none does. STEP.out and STEP.state
# (every file left under /tmp/mrtest-rbtypes); crates/cli/tests/ruby.rs
# replays them.
# Usage: tests/ruby/defer/record.sh (Debian's puppet installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps "$modules" tree_files
