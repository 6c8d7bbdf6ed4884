//! `exec` through `/bin/sh -c`: for commands written as shell code.

use marionette_ral::{Implementation, ProviderDef};

use super::{Exec, Mode};

pub fn definition() -> ProviderDef {
    let posix = super::posix::definition();
    ProviderDef::child_of(
        &posix,
        "shell",
        Implementation::Properties(std::sync::Arc::new(Exec { mode: Mode::Shell })),
    )
    .doc(
        "Runs the command as a script of `/bin/sh -c`, so pipes, redirections,
        variables, globbing and control structures work as in a terminal. The
        program need not be fully qualified: the shell searches `path` (or,
        without it, the agent's own `PATH`).

        Because the shell interprets everything, never interpolate untrusted
        data into the command; prefer the `posix` provider where no shell
        syntax is needed.",
    )
}
