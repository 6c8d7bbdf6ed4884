//! `exec` as Puppet's default provider: a string with shell syntax goes to
//! `/bin/sh -c`, as Ruby's `exec` sends it; anything else starts the
//! program directly.

use marionette_ral::{Confine, ProviderDef};

use super::{Exec, Mode};

pub fn definition() -> ProviderDef {
    ProviderDef::properties("exec", "posix", Exec { mode: Mode::Posix })
        .doc(
            "Runs a command as Puppet's does. A string with shell syntax (a
            quote, `|`, `;`, `&`, `>`, `$`, `#`, a newline, an assignment in its
            first word, or a first word that is a shell builtin) is handed to
            `/bin/sh -c`, as Ruby hands it; any other string is split at blanks
            and its program started directly. An array command is the program
            and its arguments, used unchanged and never given to a shell.

            The program (a string's leading quoted part or first word) must be
            an absolute path, or be found in the directories of `path`. This is
            the default provider. Interpolating untrusted values into a string
            command lets them reach the shell: give an array instead.",
        )
        .confine(Confine::Feature("posix".into()))
        .has_features(&["umask"])
}
