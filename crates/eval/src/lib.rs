//! The Puppet evaluator: computes the values of a manifest.
//!
//! [`Evaluator`] walks a syntax tree with scopes (top, class, local), calls
//! functions written in Puppet and the built-in library (`functions/`, one
//! file per family), and collects log lines. Turning evaluation into a
//! catalog is the compiler's job, which builds on this.
//!
//! [`run_manifest`] is what `marionette apply` does with a manifest today:
//! parse, validate, evaluate, and produce Puppet's output lines.

mod access;
mod error;
mod evaluator;
pub(crate) mod functions;
mod operators;
mod scope;

pub use error::EvalError;
pub use evaluator::{Evaluator, Level, LogEntry};
use marionette_diagnostics::SourceFile;

/// Where an output line goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// The result of running a manifest: Puppet-style lines and success.
#[derive(Debug)]
pub struct Outcome {
    pub lines: Vec<(Stream, String)>,
    pub success: bool,
}

/// Options for [`run_manifest`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The node name for node matching and messages (`--certname`).
    pub node_name: String,
    /// Fail on unknown variables instead of warning.
    pub strict_variables: bool,
    /// Show `debug` and `info` lines.
    pub verbose: bool,
}

/// Parses, validates and evaluates a manifest, producing the lines
/// `puppet apply` would print for its evaluation.
pub fn run_manifest(file: &SourceFile, options: &RunOptions) -> Outcome {
    let mut lines = Vec::new();
    let checked = marionette_syntax::check(file.text(), marionette_syntax::SourceKind::Manifest);
    for warning in checked.diagnostics.iter().filter(|d| !d.is_error()) {
        lines.push((
            Stream::Stderr,
            format!("Warning: {}", file.one_line(warning)),
        ));
    }
    // One problem is reported as the reason parsing failed; several are
    // listed and then counted, as Puppet does.
    let errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    match errors.as_slice() {
        [] => {}
        [error] => {
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: Could not parse for environment production: {}",
                    file.one_line(error)
                ),
            ));
            return Outcome {
                lines,
                success: false,
            };
        }
        several => {
            for error in several {
                lines.push((Stream::Stderr, format!("Error: {}", file.one_line(error))));
            }
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: Language validation logged {} errors. Giving up",
                    several.len()
                ),
            ));
            return Outcome {
                lines,
                success: false,
            };
        }
    }
    let mut evaluator = Evaluator::new(file);
    evaluator.strict_variables = options.strict_variables;
    let result = evaluator.evaluate_program(&checked.program, &options.node_name);
    for entry in &evaluator.logs {
        if !options.verbose && entry.level < Level::Notice {
            continue;
        }
        let stream = if entry.level >= Level::Warning {
            Stream::Stderr
        } else {
            Stream::Stdout
        };
        let line = if entry.source.is_empty() {
            format!("{}: {}", entry.level.label(), entry.message)
        } else {
            format!(
                "{}: {}: {}",
                entry.level.label(),
                entry.source,
                entry.message
            )
        };
        lines.push((stream, line));
    }
    match result {
        Ok(_) => Outcome {
            lines,
            success: true,
        },
        Err(error) if error.plain => {
            let line = file.line_col(error.span.start).line;
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: {} (file: {}, line: {line}) on node {}",
                    error.message,
                    file.name(),
                    options.node_name
                ),
            ));
            Outcome {
                lines,
                success: false,
            }
        }
        Err(error) => {
            lines.push((
                Stream::Stderr,
                format!(
                    "Error: Evaluation Error: {} {} on node {}",
                    error.message,
                    file.location(error.span),
                    options.node_name
                ),
            ));
            Outcome {
                lines,
                success: false,
            }
        }
    }
}
