//! The one error type of lookups.

use std::path::PathBuf;

/// What went wrong, for callers that react differently to each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A `hiera.yaml` that is malformed or not valid.
    Config,
    /// A data file that cannot be read or parsed.
    Data,
    /// A key, interpolation or merge that is not well formed.
    Syntax,
    /// A lookup that reaches itself through interpolation.
    Recursion,
    /// A value of the wrong type (merges, `--type`, `convert_to`).
    Type,
    /// A data provider function that failed or does not exist.
    Function,
    /// An encrypted value that could not be decrypted.
    Decrypt,
    /// A merge strategy or its options that are not valid.
    Merge,
    /// A configuration of the wrong shape, reported as Puppet reports a
    /// failed type assertion rather than as a lookup error.
    Assertion,
}

/// A lookup error with where it happened, rendered as Puppet renders it:
/// `message (file: F, line: L, column: C)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HieraError {
    pub kind: ErrorKind,
    pub message: String,
    pub file: Option<PathBuf>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Whether a compile reports it as the failure of the call that
    /// looked the key up, located there: Puppet's global layer re-raises
    /// its data's errors as plain errors naming the key, where the other
    /// layers' keep their own, unlocated, form.
    pub of_the_call: bool,
}

impl HieraError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> HieraError {
        HieraError {
            kind,
            message: message.into(),
            file: None,
            line: None,
            column: None,
            of_the_call: false,
        }
    }

    /// The same error, located in `file`.
    pub fn in_file(mut self, file: impl Into<PathBuf>, line: Option<usize>) -> HieraError {
        self.file = Some(file.into());
        self.line = line;
        self
    }
}

impl std::fmt::Display for HieraError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(file) = &self.file {
            write!(f, " (file: {}", file.display())?;
            if let Some(line) = self.line {
                write!(f, ", line: {line}")?;
                if let Some(column) = self.column {
                    write!(f, ", column: {column}")?;
                }
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl std::error::Error for HieraError {}

pub type Result<T> = std::result::Result<T, HieraError>;
