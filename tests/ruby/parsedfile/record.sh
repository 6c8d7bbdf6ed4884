#!/usr/bin/env bash
# Records what the real `puppet apply` does with the ParsedFile providers
# of Debian's Forge modules (mailalias, postgresql_conf) in
# /usr/share/puppet/modules, step after step on files of
# /tmp/mrtest-rbtypes: STEP.out (the output, colours off, times as N,
# Facter's noise dropped) and STEP.state (each file afterwards, after a
# `== NAME` line, the time in the header ParsedFile writes as N). Steps
# whose name ends in _noop run with --noop. Where Marionette differs on
# purpose, STEP.marionette.out (written by hand) holds what it prints
# instead (06: a file that cannot be written fails the change, which
# Puppet reports made before its flush fails). resource.out is `puppet
# resource postgresql_conf` (its default target, /etc/postgresql.conf,
# does not exist here). crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/parsedfile/record.sh (Debian's puppet and the modules
# of tests/forge/packages.txt installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=/usr/share/puppet/modules
rm -rf /tmp/mrtest-rbtypes
record_steps "$modules" scratch_files
puppet resource --color=false --vardir "$vardir" --modulepath "$modules" postgresql_conf 2>/dev/null > resource.out
