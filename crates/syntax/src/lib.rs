//! The Puppet language front end: lexer, parser, syntax tree, static
//! validation and printers.
//!
//! Parsing never fails and never panics: [`parse`] returns a tree together
//! with every diagnostic it found. This crate knows nothing of evaluation,
//! catalogs or files on disk; it works on text that the caller has read.
//!
//! ```
//! let checked = marionette_syntax::check("notice('hi')", marionette_syntax::SourceKind::Manifest);
//! assert!(checked.diagnostics.is_empty());
//! ```

pub mod ast;
pub mod dump;
pub mod lexer;
pub mod parser;
pub mod printer;
pub mod token;
pub mod validate;

pub use marionette_diagnostics::{Diagnostic, Severity, SourceFile, Span};
pub use parser::{Parsed, parse, parse_epp};

/// Which grammar a file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A `.pp` manifest.
    Manifest,
    /// A `.epp` template.
    Epp,
}

impl SourceKind {
    /// Chooses by file name: `.epp` is a template, anything else a manifest.
    pub fn from_path(path: &std::path::Path) -> SourceKind {
        if path.extension().is_some_and(|ext| ext == "epp") {
            SourceKind::Epp
        } else {
            SourceKind::Manifest
        }
    }
}

/// Parses and, when the grammar accepted the text, validates it: what
/// `puppet parser validate` checks.
pub fn check(source: &str, kind: SourceKind) -> Parsed {
    let mut parsed = match kind {
        SourceKind::Manifest => parse(source),
        SourceKind::Epp => parse_epp(source),
    };
    if !parsed.diagnostics.iter().any(Diagnostic::is_error) {
        parsed
            .diagnostics
            .extend(validate::validate(&parsed.program, source));
    }
    parsed.diagnostics.sort_by_key(|d| d.span.start);
    parsed
}
