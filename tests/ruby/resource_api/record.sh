#!/usr/bin/env bash
# Records what the real `puppet apply` does with the Resource API types of
# tests/ruby/modules/mrtest_ra, step after step on the files of
# /tmp/mrtest-rbtypes: STEP.out (the output, colours off, times as N,
# Facter's noise dropped) and STEP.state (each file afterwards, after a
# `== NAME` line). Steps whose name ends in _noop run with --noop.
# resource.out is `puppet resource mrtest_rakv` afterwards.
# Where Marionette differs on purpose, STEP.marionette.out (written by
# hand) holds what it prints instead: errors name the manifest's file and
# line; a provider whose `set` fails fails the change itself; change
# messages show the value the manifest gives, not the one the provider's
# `canonicalize` makes of it, and booleans unquoted.
# crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/resource_api/record.sh (Debian's puppet and
# ruby-puppet-resource-api installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes
record_steps "$modules" scratch_files
puppet resource --color=false --vardir "$vardir" --modulepath "$modules" mrtest_rakv 2>/dev/null > resource.out
