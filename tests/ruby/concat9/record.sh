#!/usr/bin/env bash
# Records what the real `puppet apply` does with concat 9.1 (vendored in
# modules/, newer than the concat Marionette's native types were written
# for) and Debian's stdlib, step after step under /tmp/mrtest-rbtypes:
# STEP.out and STEP.state. crates/cli/tests/ruby.rs replays them: the
# native concat_file must hand these resources to the module's own Ruby.
# Usage: tests/ruby/concat9/record.sh (Debian's puppet and Forge packages).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
rm -rf /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps "$PWD/modules:/usr/share/puppet/modules" tree_files
