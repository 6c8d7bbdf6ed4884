#!/usr/bin/env bash
# Records what the real `puppet apply` does with stdlib's and inifile's
# types (file_line, ini_setting, ini_subsetting) from Debian's modules, step
# after step under /tmp/mrtest-rbtypes: STEP.out and STEP.state (every file
# left). crates/cli/tests/ruby.rs replays them twice: with the modules on
# the module path (Marionette's native types) and with only their lib, as
# an agent's pluginsync leaves it (their own Ruby), so that the native
# types are checked to give what the modules' Ruby gives.
# Usage: tests/ruby/parity/record.sh (Debian's puppet and Forge packages).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
rm -rf /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps /usr/share/puppet/modules tree_files
