#!/usr/bin/env bash
# Records what the real `puppet apply` does with a concat newer than the
# one Marionette's native types were written for (made by ./newer-concat
# from Debian's: it declares concat 9's create_empty_file) and Debian's
# stdlib, step after step under /tmp/mrtest-rbtypes: STEP.out and
# STEP.state. crates/cli/tests/ruby.rs replays them: the native
# concat_file must hand these resources to the module's own Ruby.
# Usage: tests/ruby/concat9/record.sh (Debian's puppet and Forge packages).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
rm -rf /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
modules=$(mktemp -d)
./newer-concat "$modules"
record_steps "$modules:/usr/share/puppet/modules" tree_files
rm -rf "$modules"
