//! What a code change does to catalogs, node by node: the layer behind
//! `marionette catalog diff`.
//!
//! The door is small:
//! - [`diff`] compares a node's catalog compiled from the old code with
//!   the one compiled from the new, as octocatalog-diff compares them, and
//!   returns its [`Change`]s (resources added and removed, and each
//!   parameter's old and new value);
//! - [`Options`] says what to leave out (octocatalog-diff's `--ignore`
//!   rules, parsed by [`Ignore::parse`], ignored tags, whitespace-only
//!   content changes, tags and classes);
//! - [`Report`] gathers every node's outcome (its changes, or the compile
//!   failure of either side), groups the nodes that changed in the same
//!   way, and renders itself as text (coloured or not), as JSON in
//!   octocatalog-diff's shape, or as one self-contained HTML page.
//!
//! It never compiles, reads files or prints: the caller compiles both
//! sides and gives catalogs; it depends only on the catalog crate (and `values` for Ruby's regexes).
//! Sensitive parameters are compared but never shown: their values are
//! replaced by Puppet's redaction before anything leaves this crate.

mod compare;
mod ignore;
mod render;
mod report;

pub use compare::{Change, DiffType, diff};
pub use ignore::Ignore;
pub use report::{Failure, NodeOutcome, Report, Side};

/// What Puppet prints in place of a Sensitive value.
pub const REDACTED: &str = "Sensitive [value redacted]";

/// What a diff leaves out. The default is octocatalog-diff's: classes
/// and tags are not compared, resources tagged `ignored_octocatalog_diff`
/// are ignored.
#[derive(Clone, Debug)]
pub struct Options {
    /// Changes matching any of these are left out.
    pub ignores: Vec<Ignore>,
    /// Resources carrying one of these tags (or `TAG__type`) in the new
    /// catalog, or in the old one when the new one lacks them, are left out.
    pub ignore_tags: Vec<String>,
    /// Changes of a string that differ only in whitespace are left out.
    pub ignore_whitespace: bool,
    /// Compare resources' tags too.
    pub include_tags: bool,
    /// Compare `Class` resources too (octocatalog-diff leaves them out:
    /// what a class does is its resources).
    pub include_classes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ignores: Vec::new(),
            ignore_tags: vec!["ignored_octocatalog_diff".to_string()],
            ignore_whitespace: false,
            include_tags: false,
            include_classes: false,
        }
    }
}

/// What was wrong with what the caller asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// An `--ignore` rule that is not `Type[Title]` or
    /// `Type[Title]attribute`.
    #[error(
        "Ignore rule '{0}' must be in Type[Title] or Type[Title]attribute format (wildcards * in the title)"
    )]
    BadIgnore(String),
    /// An ignore rule whose regular expression does not compile.
    #[error("Invalid ignore regexp in '{rule}': {problem}")]
    BadIgnoreRegex { rule: String, problem: String },
}
