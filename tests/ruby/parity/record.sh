#!/usr/bin/env bash
# Records what the real `puppet apply` does with stdlib's, inifile's,
# concat's and mount_core's types (file_line, ini_setting, ini_subsetting,
# concat_file, concat_fragment, mount) from Debian's modules, step after step under
# /tmp/mrtest-rbtypes: STEP.out and STEP.state (every file left), and what
# `puppet describe concat_file` prints. crates/cli/tests/ruby.rs replays them twice: with the modules on
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
# What `describe` shows of concat_file: the module's own type, whatever
# stands for it natively. Puppet's describe loads every type of the module
# path: concat's alone.
only=$(mktemp -d)
ln -s /usr/share/puppet/modules/concat "$only/concat"
puppet describe --color=false --modulepath "$only" concat_file > describe-concat_file.out 2>&1
rm -rf "$only"
