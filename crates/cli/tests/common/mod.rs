//! Helpers shared by the command-line tests.

// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

use std::process::Command;

pub(crate) mod meaning;

/// What a run of the `marionette` binary gave.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Notices go to stdout and errors to stderr; tests often read both.
    pub(crate) fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs the `marionette` binary built for the tests, with extra
/// environment variables, without colours.
pub(crate) fn marionette_with(args: &[&str], env: &[(&str, &str)]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .output()
        .expect("marionette runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs the `marionette` binary.
pub(crate) fn marionette(args: &[&str]) -> Run {
    marionette_with(args, &[])
}

/// Replaces run times, which vary, by `N`: "Applied catalog in N seconds".
pub(crate) fn timeless(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind(" in ") {
            Some(at) if line.ends_with(" seconds") => format!("{} in N seconds", &line[..at]),
            _ => line.to_string(),
        })
        .map(|line| line + "\n")
        .collect()
}

/// The case directories under a corpus root that hold one of `files`, in
/// order.
pub(crate) fn case_dirs(root: &std::path::Path, files: &[&str]) -> Vec<std::path::PathBuf> {
    let mut cases: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| files.iter().any(|f| p.join(f).exists()))
        .collect();
    cases.sort();
    cases
}

/// A comparison's problems, one per line, or success when there are none.
pub(crate) fn outcome(problems: Vec<String>) -> Result<(), String> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

/// The files with extension `ext` in a corpus directory, in order.
pub(crate) fn case_files(root: &std::path::Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}
