#!/usr/bin/env bash
# Records what the real `puppet apply` does with the ruby provider of
# Debian's archive module (/usr/share/puppet/modules): a provider on a
# sibling provider's class, code in the module's own `puppet_x`, a file
# of a bundled gem (net/ftp), and an `ensure` that words its own change.
# Step after step under /tmp/mrtest-rbtypes: STEP.out (the output, colours
# off, times as N, Facter's noise dropped) and STEP.state (the files
# under dest/). resource.out is `puppet resource archive` (which lists
# nothing). crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/archive/record.sh (Debian's puppet and the modules of
# tests/forge/packages.txt installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
rm -rf /tmp/mrtest-rbtypes
record_steps /usr/share/puppet/modules extracted
puppet resource --color=false --vardir "$vardir" --modulepath /usr/share/puppet/modules archive 2>/dev/null > resource.out
