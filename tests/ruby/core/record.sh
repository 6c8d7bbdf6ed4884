#!/usr/bin/env bash
# Records what the real `puppet apply` does with providers a module ships
# for Puppet's core types (tests/ruby/modules/mrtest_core: mrtest_flag and
# mrtest_plain for service, on Puppet's base service provider; mrtest_pkg
# for package, on Puppet::Provider::Package), step after step under
# /tmp/mrtest-rbtypes: STEP.out and STEP.state (every file left, with its
# contents). crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/core/record.sh (Debian's puppet installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes && mkdir -p /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps "$modules" tree_files
