#!/usr/bin/env bash
# Records what the real `puppet apply` does with the Ruby type and provider
# of tests/ruby/modules/mrtest_rb (mrtest_kv), step after step on one file,
# /tmp/mrtest-rbtypes/kv.conf: STEP.out (the output, colours off, times as N,
# Facter's noise dropped) and STEP.state (the file afterwards). Steps whose
# name ends in _noop run with --noop. Where Marionette differs on purpose,
# STEP.marionette.out (written by hand) holds what it prints instead.
# resource.out is `puppet resource
# mrtest_kv` over a file of two keys. crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/apply/record.sh (Debian's puppet installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes && mkdir -p /tmp/mrtest-rbtypes
kv_file() { cat /tmp/mrtest-rbtypes/kv.conf 2>/dev/null || :; }
record_steps "$modules" kv_file
# Listing: `puppet resource mrtest_kv` over a file of two keys.
printf 'a=1\nb=2\n' > /tmp/mrtest-rbtypes/kv.conf
puppet resource --color=false --vardir "$vardir" --modulepath "$modules" mrtest_kv 2>/dev/null > resource.out
