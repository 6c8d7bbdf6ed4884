#!/usr/bin/env bash
# Records what the real `puppet apply` does with the dpkg provider of
# Debian's alternatives module (/usr/share/puppet/modules), whose getters
# run update-alternatives, step after step on an alternative `mrtest-alt`
# made for it: STEP.out (the output, colours off, times as N, Facter's
# noise dropped) and STEP.state (`update-alternatives --query` of it,
# without its last-changed time). resource.out is `puppet resource
# alternatives mrtest-alt`. The alternative is removed at the end.
# crates/cli/tests/ruby.rs replays them.
# Usage (as root): tests/ruby/alternatives/record.sh (Debian's puppet and
# the modules of tests/forge/packages.txt installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
update-alternatives --remove-all mrtest-alt 2>/dev/null || true
rm -rf /tmp/mrtest-rbtypes
record_steps /usr/share/puppet/modules alternative
puppet resource --color=false --vardir "$vardir" --modulepath /usr/share/puppet/modules alternatives mrtest-alt 2>/dev/null > resource.out
update-alternatives --remove-all mrtest-alt
