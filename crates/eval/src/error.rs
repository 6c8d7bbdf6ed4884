//! Evaluation errors and the non-local exits that travel the same way.

use marionette_diagnostics::{SourceFile, Span};
use marionette_values::Value;

/// Why evaluation of an expression stopped early.
#[derive(Clone, Debug)]
pub(crate) enum Stop {
    /// A user-facing evaluation error.
    Error(EvalError),
    /// `break()` inside an iteration.
    Break(Span),
    /// `next(value)` inside a lambda or function.
    Next(Value, Span),
    /// `return(value)` inside a function or lambda body.
    Return(Value, Span),
}

/// An evaluation error with the place it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub message: String,
    pub span: Span,
    /// Raised by the function-call machinery itself (argument checks, a
    /// built-in's own error): the call site adds "Error while evaluating a
    /// Function Call, " and its position, as Puppet does.
    pub(crate) from_call: bool,
    /// Puppet reports some errors without "Evaluation Error:" and with the
    /// line only (a `break()` outside an iteration, for example).
    pub plain: bool,
    /// Where the error happened when that is not the main manifest (code
    /// from a module), or when it is known only as a line; `None` means
    /// `span` in the main manifest.
    pub located: Option<Located>,
    /// The error concerns the whole compilation and has no location.
    pub unlocated: bool,
    /// `located.file` holds the whole location text (syntax errors in
    /// loaded files, whose location form depends on the position).
    pub raw_location: bool,
    /// A failed data lookup (nothing found, bad data): Puppet reports it
    /// once on its own before the usual lines, and `puppet lookup` ends
    /// quietly on it.
    pub lookup: bool,
}

/// A resolved error position.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
}

impl Located {
    /// `(file: F, line: L, column: C)`, or without the column.
    pub fn text(&self) -> String {
        marionette_diagnostics::location_text(
            &self.file,
            self.line as usize,
            self.column.map(|c| c as usize),
        )
    }
}

impl EvalError {
    pub fn new(message: impl Into<String>, span: Span) -> EvalError {
        EvalError {
            message: message.into(),
            span,
            from_call: false,
            plain: false,
            located: None,
            unlocated: false,
            raw_location: false,
            lookup: false,
        }
    }

    /// Resolves the span against the file it belongs to.
    pub(crate) fn locate(&mut self, file: &SourceFile) {
        let place = file.line_col(self.span.start);
        self.located = Some(Located {
            file: file.name().to_string(),
            line: place.line as u32,
            column: Some(place.column as u32),
        });
    }

    pub(crate) fn without_location(mut self) -> EvalError {
        self.unlocated = true;
        self
    }

    /// The location text Puppet appends: from `located`, else from `span`
    /// in `main`; empty for errors of the whole compilation.
    pub fn location_text(&self, main: &SourceFile) -> String {
        if self.unlocated {
            return String::new();
        }
        match &self.located {
            Some(located) if self.raw_location => located.file.clone(),
            Some(located) => located.text(),
            None => main.location(self.span),
        }
    }

    /// The line-only form, `(file: F, line: L)`.
    pub fn line_text(&self, main: &SourceFile) -> String {
        match &self.located {
            Some(located) if self.raw_location => located.file.clone(),
            Some(located) => {
                marionette_diagnostics::location_text(&located.file, located.line as usize, None)
            }
            None => marionette_diagnostics::location_text(
                main.name(),
                main.line_col(self.span.start).line,
                None,
            ),
        }
    }
}

impl From<EvalError> for Stop {
    fn from(error: EvalError) -> Stop {
        Stop::Error(error)
    }
}

pub(crate) type EvalResult<T> = Result<T, Stop>;

/// Shorthand for failing with a message at a span.
pub(crate) fn fail<T>(message: impl Into<String>, span: Span) -> EvalResult<T> {
    Err(Stop::Error(EvalError::new(message, span)))
}

/// Fails with an error that the enclosing call expression will describe.
pub(crate) fn fail_in_call<T>(message: impl Into<String>, span: Span) -> EvalResult<T> {
    Err(Stop::Error(EvalError {
        message: message.into(),
        span,
        from_call: true,
        plain: false,
        located: None,
        unlocated: false,
        raw_location: false,
        lookup: false,
    }))
}
