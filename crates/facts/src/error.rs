//! The problems fact collection reports. None of them stops collection: the
//! facts that could be resolved are returned beside the errors.

use std::path::PathBuf;
use std::time::Duration;

/// Something that went wrong while resolving facts, or reading a facts file.
///
/// Collection never stops at one of these: a broken external fact or custom
/// fact is left out, and every other fact still resolves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FactError {
    /// An external fact file could not be read (permissions, a directory
    /// entry that vanished, bytes that are not UTF-8).
    #[error("Could not read external fact file {}: {message}", path.display())]
    ExternalRead { path: PathBuf, message: String },
    /// An external `.yaml`, `.yml` or `.json` file is not valid YAML or JSON.
    #[error("Could not parse external fact file {} as {format}: {message}", path.display())]
    ExternalParse {
        path: PathBuf,
        format: &'static str,
        message: String,
    },
    /// An external `.yaml`, `.yml` or `.json` file holds something other than
    /// a mapping of fact names to values at its top level.
    #[error("External fact file {} must hold a mapping of fact names to values, not {found}", path.display())]
    ExternalNotMapping { path: PathBuf, found: &'static str },
    /// A file in a facts.d directory looks like a script (it starts with
    /// `#!`) but has no execute permission, so it was not run.
    #[error("External fact file {} starts with #! but is not executable (chmod +x it, or give it a .txt, .yaml or .json extension)", path.display())]
    ExternalNotExecutable { path: PathBuf },
    /// An executable external fact could not be started.
    #[error("Could not run external fact {}: {message}", path.display())]
    ExternalSpawn { path: PathBuf, message: String },
    /// An executable external fact exited unsuccessfully; what it printed
    /// was not used.
    #[error("External fact {} {status}{}", path.display(), stderr_suffix(stderr))]
    ExternalFailed {
        path: PathBuf,
        /// How it ended, as a phrase: `exited with status 3`, `was killed by
        /// signal 9`.
        status: String,
        /// What it printed on stderr, trimmed.
        stderr: String,
    },
    /// An executable external fact ran longer than the timeout and was
    /// killed with its whole process group.
    #[error("External fact {} did not finish within {} seconds and was killed", path.display(), timeout.as_secs_f64())]
    ExternalTimeout { path: PathBuf, timeout: Duration },
    /// An executable external fact succeeded but printed on stderr. This is
    /// a warning: its facts are used.
    #[error("External fact {} printed on stderr: {stderr}", path.display())]
    ExternalStderr { path: PathBuf, stderr: String },
    /// Custom facts depend on each other in a circle; none of them in the
    /// circle resolves.
    #[error("Cycle in fact resolution: {}", chain.join(" -> "))]
    Cycle {
        /// The facts in the order they were asked for, the first repeated at
        /// the end.
        chain: Vec<String>,
    },
    /// Custom facts depend on each other in a chain longer than the limit
    /// (which keeps resolution from exhausting the stack).
    #[error("Custom fact '{fact}' depends on a chain of more than {limit} custom facts")]
    TooDeep { fact: String, limit: usize },
    /// A custom fact's resolution reported an error of its own.
    #[error("Custom fact '{fact}' could not be resolved: {message}")]
    Custom { fact: String, message: String },
    /// A facts file given to [`crate::load_facts_file`] could not be read.
    #[error("Could not read facts file {}: {message}", path.display())]
    FactsFileRead { path: PathBuf, message: String },
    /// A facts file is not valid JSON or YAML, or does not hold a mapping of
    /// facts.
    #[error("Could not parse facts file {}: {message}", path.display())]
    FactsFileParse { path: PathBuf, message: String },
}

fn stderr_suffix(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(": {stderr}")
    }
}

impl FactError {
    /// Whether this only deserves a warning: the facts concerned were still
    /// resolved.
    pub fn is_warning(&self) -> bool {
        matches!(self, FactError::ExternalStderr { .. })
    }
}
