//! Subcommands that are not built in: `marionette NAME ARGS...` runs
//! `marionette-NAME ARGS...` from a module's `bin/` (module path first) or
//! from `PATH`, as git and cargo do, and `marionette help` lists them.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::CommandFactory;

/// Names a subcommand may have: nothing that could leave the directories
/// searched.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Every `marionette-NAME` found, by name: modules first, then `PATH` in
/// order (the first of each name wins, as when running it).
fn available() -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    for (name, path) in crate::environment::plugins().subcommands() {
        found.entry(name).or_insert(path);
    }
    let search = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&search) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        names.sort();
        for path in names {
            let file = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Some(name) = file.strip_prefix("marionette-")
                && valid_name(name)
                && marionette_ral::command::which(&path.to_string_lossy()).is_some()
            {
                found.entry(name.to_string()).or_insert(path);
            }
        }
    }
    found
}

/// Runs an external subcommand, handing it the terminal and the
/// environment; its exit status becomes marionette's.
pub(crate) fn run(args: &[OsString]) -> Result<ExitCode> {
    let Some((name, rest)) = args.split_first() else {
        return Ok(ExitCode::FAILURE);
    };
    let name = name.to_string_lossy();
    let found = valid_name(&name)
        .then(|| available().remove(name.as_ref()))
        .flatten();
    let Some(path) = found else {
        errln!(
            "Error: '{name}' is not a marionette command, and no marionette-{name} was found in the modules' bin/ directories or on PATH. See 'marionette help'."
        );
        return Ok(ExitCode::FAILURE);
    };
    exec(&path, rest)
}

fn exec(path: &Path, args: &[OsString]) -> Result<ExitCode> {
    let environment = crate::environment::current();
    let modulepath = std::env::join_paths(&environment.modulepath).unwrap_or_default();
    let mut command = std::process::Command::new(path);
    command
        .args(args)
        .env("MARIONETTE_ENVIRONMENT", &environment.name)
        .env("MARIONETTE_MODULEPATH", modulepath);
    if let Ok(me) = std::env::current_exe() {
        command.env("MARIONETTE", me);
    }
    let status = command
        .status()
        .with_context(|| format!("Could not run {}", path.display()))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        // Killed by a signal: the shell's convention.
        None => {
            use std::os::unix::process::ExitStatusExt;
            ExitCode::from(128 + u8::try_from(status.signal().unwrap_or(0)).unwrap_or(0))
        }
    })
}

/// `marionette help [COMMAND [SUBCOMMAND]]`.
pub(crate) fn help<C: CommandFactory>(
    command: Option<&str>,
    subcommand: Option<&str>,
) -> Result<ExitCode> {
    let mut cli = C::command();
    let Some(name) = command else {
        out!("{}", cli.render_long_help());
        let found = available();
        if !found.is_empty() {
            outln!("\nSubcommands from modules and PATH:");
            let width = found.keys().map(String::len).max().unwrap_or(0);
            for (name, path) in &found {
                outln!("  {name:width$}  {}", path.display());
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    if let Some(found) = cli.find_subcommand_mut(name) {
        let found = match subcommand {
            Some(sub) => match found.find_subcommand_mut(sub) {
                Some(sub) => sub,
                None => anyhow::bail!("'{name}' has no subcommand '{sub}'"),
            },
            None => found,
        };
        out!("{}", found.render_long_help());
        return Ok(ExitCode::SUCCESS);
    }
    match valid_name(name).then(|| available().remove(name)).flatten() {
        Some(path) => exec(&path, &[OsString::from("--help")]),
        None => anyhow::bail!("'{name}' is not a marionette command; see 'marionette help'"),
    }
}
