#!/usr/bin/env bash
# Records what the real `puppet apply` does with the git provider of
# Debian's vcsrepo module (/usr/share/puppet/modules), a Ruby type whose
# providers share a base class of the module's own
# (Puppet::Provider::Vcsrepo), step after step on repositories under
# /tmp/mrtest-rbtypes: STEP.out (the output, colours off, times as N,
# Facter's noise dropped) and STEP.state (each repository afterwards: its
# name, whether it has a work tree, and its commits' subjects).
# resource.out is `puppet resource vcsrepo` (the type lists nothing).
# crates/cli/tests/ruby.rs replays them.
# Usage: tests/ruby/vcsrepo/record.sh (Debian's puppet, git and the
# modules of tests/forge/packages.txt installed).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=../record-steps.sh
. ../record-steps.sh
rm -rf /tmp/mrtest-rbtypes
record_steps /usr/share/puppet/modules repositories
puppet resource --color=false --vardir "$vardir" --modulepath /usr/share/puppet/modules vcsrepo 2>/dev/null > resource.out
