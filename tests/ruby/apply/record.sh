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
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes && mkdir -p /tmp/mrtest-rbtypes
vardir=$(mktemp -d)
trap 'rm -rf "$vardir" /tmp/mrtest-rbtypes' EXIT
for pp in [0-9][0-9]_*.pp; do
  step=${pp%.pp}
  noop=
  case "$step" in *_noop) noop=--noop ;; esac
  set +e
  puppet apply --color=false $noop --vardir "$vardir" --modulepath "$modules" "$pp" 2>&1 \
    | grep -v '^Error: Facter:' \
    | sed -E 's/ in [0-9.]+ seconds$/ in N seconds/; s/ on node .*$//; s#'"$PWD"'/##' > "$step.out"
  set -e
  cat /tmp/mrtest-rbtypes/kv.conf > "$step.state" 2>/dev/null || : > "$step.state"
done
# Listing: `puppet resource mrtest_kv` over a file of two keys.
printf 'a=1\nb=2\n' > /tmp/mrtest-rbtypes/kv.conf
puppet resource --color=false --vardir "$vardir" --modulepath "$modules" mrtest_kv 2>/dev/null > resource.out
