#!/usr/bin/env bash
# Records what the real `puppet apply` does with the types and providers of
# tests/ruby/modules/mrtest_dsl, written with every part of the type and
# provider DSL that Puppet's custom-types and provider-development pages
# teach (mrtest_widget, mrtest_entry; mrtest_setter sets a parameter of
# another resource, as datacat's collector does; mrtest_ini keeps a key of
# an INI file through Puppet::Util::IniConfig; mrtest_chime's providers
# are reboot's: a deprecated child of one whose command is missing;
# mrtest_drive stops a service through the provider of a `service` it
# makes, as rabbitmq's erlang cookie does), step
# after step under
# /tmp/mrtest-rbtypes: STEP.out (the output, colours off, times as N,
# Facter's noise dropped) and STEP.state (every file left, with its
# contents). Steps whose name ends in _noop run with --noop. Where
# Marionette differs on purpose, STEP.marionette.out (written by hand)
# holds what it prints instead (23: a refused file mode says what is wrong
# with it). resource.out is `puppet resource
# mrtest_widget` over what the steps left; describe.out and
# describe-providers.out are `puppet describe [--providers] mrtest_widget`.
# crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/dsl/record.sh (Debian's puppet installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
modules=$(cd ../modules && pwd)
rm -rf /tmp/mrtest-rbtypes && mkdir -p /tmp/mrtest-rbtypes
tree_files() { files_under /tmp/mrtest-rbtypes; }
record_steps "$modules" tree_files
puppet resource --color=false --vardir "$vardir" --modulepath "$modules" mrtest_widget 2>/dev/null > resource.out
# describe loads every type of the module path: mrtest_dsl's alone (the
# Resource API types of mrtest_ra need a gem Debian's Puppet lacks).
only=$(mktemp -d)
ln -s "$modules/mrtest_dsl" "$only/mrtest_dsl"
puppet describe --color=false --modulepath "$only" mrtest_widget > describe.out 2>&1
puppet describe --color=false --modulepath "$only" --providers mrtest_widget > describe-providers.out 2>&1
rm -rf "$only"
