//! `marionette completions SHELL` and `marionette man`: shell completion
//! scripts and manual pages, generated from the command definitions so
//! that they never disagree with `--help`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

#[derive(Args)]
pub(crate) struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

#[derive(Args)]
pub(crate) struct ManArgs {
    /// Write `marionette.1` and a page per command (`marionette-apply.1`,
    /// ...) into this directory instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Prints the completion script; for bash, `source <(marionette
/// completions bash)` or a file in `/usr/share/bash-completion/completions`.
pub(crate) fn completions<C: CommandFactory>(args: &CompletionsArgs) -> Result<ExitCode> {
    let mut command = C::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "marionette", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}

/// Prints the main manual page, or writes every page into a directory.
pub(crate) fn man<C: CommandFactory>(args: &ManArgs) -> Result<ExitCode> {
    let command = C::command();
    match &args.out {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            out!("{}", String::from_utf8_lossy(&page));
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("Could not create {}", dir.display()))?;
            write_pages(&command, "marionette", dir)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A page for `command` and, below it, for each of its visible
/// subcommands, named by their path (`marionette-catalog-compile.1`).
fn write_pages(command: &clap::Command, name: &str, dir: &Path) -> Result<()> {
    let command = command.clone().name(name.to_string());
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut page)?;
    let path = dir.join(format!("{name}.1"));
    std::fs::write(&path, page).with_context(|| format!("Could not write {}", path.display()))?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, &format!("{name}-{}", sub.get_name()), dir)?;
    }
    Ok(())
}
