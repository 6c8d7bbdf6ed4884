//! Evaluation errors and the non-local exits that travel the same way.

use marionette_diagnostics::Span;
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
}

impl EvalError {
    pub fn new(message: impl Into<String>, span: Span) -> EvalError {
        EvalError {
            message: message.into(),
            span,
            from_call: false,
            plain: false,
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
    }))
}
