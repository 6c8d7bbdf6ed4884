#!/usr/bin/env bash
# Records what the real `puppet apply` does with a module type whose
# attributes a mixin's method declares (keystone's config types), beside a
# type declaring nothing (openstacklib's base type), from
# tests/ruby/modules/mrtest_mixin: STEP.out, and STEP.state (the files left
# under /tmp/mrtest-rbtypes). crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/mixin/record.sh (Debian's puppet installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps "$modules" tree_files
