//! `exec` without a shell: the command is split into words here and the
//! program started directly, so nothing in it is expanded or interpreted.

use marionette_ral::{Confine, ProviderDef};

use super::{Exec, Mode};

pub fn definition() -> ProviderDef {
    ProviderDef::properties("exec", "posix", Exec { mode: Mode::Posix })
        .doc(
            "Starts the program directly, without a shell. A command string is
            split into words like a shell would split it (quotes and backslashes
            group and escape), but nothing is expanded: `$HOME`, `*`, `~` and
            backquotes stay as written, and `|`, `;`, `&&` or `>` are ordinary
            arguments. An array command is used as the program and its arguments
            unchanged.

            The program must be an absolute path, or be found in the directories
            of `path`. This is the default provider, and the safer one: values
            interpolated into the command cannot inject shell code.",
        )
        .confine(Confine::Feature("posix".into()))
        .has_features(&["umask"])
}
