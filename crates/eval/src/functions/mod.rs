//! The built-in function library, one file per family.
//!
//! To add a function: write `fn name(eval, call) -> EvalResult<Value>` in the
//! family's file, check its arguments through [`Call`] so that errors read
//! like Puppet's, and add it to that file's `register`.

use std::collections::HashMap;
use std::sync::OnceLock;

use marionette_diagnostics::Span;
use marionette_values::format::type_label;
use marionette_values::{PType, Value};

use crate::error::{EvalResult, fail_in_call};
use crate::evaluator::{Closure, Evaluator};

pub(crate) mod catalog;
pub(crate) mod collections;
pub(crate) mod digest;
pub(crate) mod fqdn_rand;
pub(crate) mod iteration;
pub(crate) mod logging;
pub(crate) mod lookup;
pub(crate) mod math;
pub(crate) mod misc;
pub(crate) mod puppetdb;
pub(crate) mod scanf;
pub(crate) mod stdlib;
pub(crate) mod strings;
pub(crate) mod types;

pub(crate) type Builtin = for<'p> fn(&mut Evaluator<'p>, &mut Call<'_, 'p>) -> EvalResult<Value>;

/// One call of a built-in function.
pub(crate) struct Call<'a, 'p> {
    pub name: &'a str,
    pub args: Vec<Value>,
    pub lambda: Option<Closure<'p>>,
    pub span: Span,
}

pub(crate) fn builtins() -> &'static HashMap<&'static str, Builtin> {
    static BUILTINS: OnceLock<HashMap<&'static str, Builtin>> = OnceLock::new();
    BUILTINS.get_or_init(|| {
        let mut map: HashMap<&'static str, Builtin> = HashMap::new();
        catalog::register(&mut map);
        collections::register(&mut map);
        digest::register(&mut map);
        fqdn_rand::register(&mut map);
        scanf::register(&mut map);
        iteration::register(&mut map);
        logging::register(&mut map);
        lookup::register(&mut map);
        math::register(&mut map);
        misc::register(&mut map);
        puppetdb::register(&mut map);
        strings::register(&mut map);
        types::register(&mut map);
        map
    })
}

impl<'p> Call<'_, 'p> {
    /// Fails with Puppet's prefix for errors raised by a function.
    pub(crate) fn error<T>(&self, message: impl std::fmt::Display) -> EvalResult<T> {
        fail_in_call(message.to_string(), self.span)
    }

    /// Checks the argument count.
    pub(crate) fn arity(&self, min: usize, max: Option<usize>) -> EvalResult<()> {
        let count = self.args.len();
        let within = count >= min && max.is_none_or(|max| count <= max);
        if within {
            return Ok(());
        }
        let expected = match max {
            Some(max) if max == min => min.to_string(),
            Some(max) => format!("between {min} and {max}"),
            None => format!("at least {min}"),
        };
        let noun = if expected == "1" {
            "argument"
        } else {
            "arguments"
        };
        self.error(format_args!(
            "'{}' expects {expected} {noun}, got {count}",
            self.name
        ))
    }

    /// A type error for argument `index` named `parameter`.
    pub(crate) fn mismatch<T>(
        &self,
        parameter: &str,
        expected: &str,
        index: usize,
    ) -> EvalResult<T> {
        let actual = self
            .args
            .get(index)
            .map_or("Undef".to_string(), |v| PType::infer(v).name());
        // A choice of types reads "a value of type A or B", one type "an A value".
        let wanted = if expected.contains(" or ") {
            format!("a value of type {expected}")
        } else {
            let article = if expected.starts_with(['A', 'E', 'I', 'O', 'U']) {
                "an"
            } else {
                "a"
            };
            format!("{article} {expected} value")
        };
        self.error(format_args!(
            "'{}' parameter '{parameter}' expects {wanted}, got {actual}",
            self.name
        ))
    }

    pub(crate) fn string(&self, index: usize, parameter: &str) -> EvalResult<String> {
        match self.args.get(index) {
            Some(Value::String(s)) => Ok(s.to_string()),
            _ => self.mismatch(parameter, "String", index),
        }
    }

    pub(crate) fn integer(&self, index: usize, parameter: &str) -> EvalResult<i64> {
        match self.args.get(index) {
            Some(Value::Integer(i)) => Ok(*i),
            _ => self.mismatch(parameter, "Integer", index),
        }
    }

    /// The block, which the function requires.
    pub(crate) fn lambda(&self) -> EvalResult<Closure<'p>> {
        match self.lambda {
            Some(lambda) => Ok(lambda),
            None => self.error(format_args!("'{}' expects a block", self.name)),
        }
    }

    pub(crate) fn no_lambda(&self) -> EvalResult<()> {
        match self.lambda {
            None => Ok(()),
            Some(_) => self.error(format_args!("'{}' does not accept a block", self.name)),
        }
    }
}

/// The elements an iteration function walks over: array elements, hash
/// pairs, the integers below a count, a string's characters, a range type.
pub(crate) fn iterable(call: &Call<'_, '_>, value: &Value) -> EvalResult<Vec<Value>> {
    match value {
        Value::Array(items) => Ok(items.to_vec()),
        Value::Iterator(items) => Ok(items.clone()),
        Value::Hash(hash) => Ok(hash
            .iter()
            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
            .collect()),
        Value::Integer(n) if *n >= 0 => expand_range(call, 0, *n - 1),
        Value::String(s) => Ok(s.chars().map(|c| Value::string(c.to_string())).collect()),
        Value::Type(t) => match t.resolved() {
            PType::Integer { min, max } if *min != i64::MIN && *max != i64::MAX => {
                expand_range(call, *min, *max)
            }
            PType::Enum { values, .. } => {
                Ok(values.iter().map(|v| Value::string(v.clone())).collect())
            }
            _ => call.error(format_args!(
                "'{}' parameter 'iterable' expects an Iterable value, got {}",
                call.name,
                type_label(value)
            )),
        },
        other => call.error(format_args!(
            "'{}' parameter 'iterable' expects an Iterable value, got {}",
            call.name,
            type_label(other)
        )),
    }
}

/// Iteration expands ranges into values; past this many it is refused
/// rather than exhausting memory.
pub(crate) const MAX_EXPANDED: i64 = 10_000_000;

/// The integers `from..=to`, or `None` when there are more than
/// [`MAX_EXPANDED`].
pub(crate) fn integer_range(from: i64, to: i64) -> Option<Vec<Value>> {
    let count = i128::from(to) - i128::from(from) + 1;
    (count <= i128::from(MAX_EXPANDED)).then(|| (from..=to).map(Value::Integer).collect())
}

fn expand_range(call: &Call<'_, '_>, from: i64, to: i64) -> EvalResult<Vec<Value>> {
    match integer_range(from, to) {
        Some(values) => Ok(values),
        None => call.error(format_args!(
            "'{}' cannot iterate over more than {MAX_EXPANDED} values",
            call.name
        )),
    }
}

/// Code parsed from text at run time (an inline EPP template, a type a
/// Ruby function declares) lives for the rest of the process, so that the
/// evaluator can keep references into it; the cache keeps the same text
/// from being parsed (and kept) twice. `name` is the file name errors
/// give, as Puppet names such text.
pub(crate) fn leaked_program(
    text: &str,
    kind: marionette_syntax::SourceKind,
    name: &str,
) -> Result<&'static marionette_syntax::ast::Program, String> {
    type Cache = Vec<(String, bool, &'static marionette_syntax::ast::Program)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    let epp = kind == marionette_syntax::SourceKind::Epp;
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, _, program)) = cache
        .iter()
        .find(|(source, e, _)| source == text && *e == epp)
    {
        return Ok(program);
    }
    let checked = marionette_syntax::check(text, kind);
    if let Some(error) = checked.diagnostics.iter().find(|d| d.is_error()) {
        let at = marionette_diagnostics::SourceFile::new(name, text).line_col(error.span.start);
        return Err(format!(
            "{} (file: {name}, line: {}, column: {})",
            error.message, at.line, at.column
        ));
    }
    let program: &'static marionette_syntax::ast::Program = Box::leak(Box::new(checked.program));
    cache.push((text.to_string(), epp, program));
    Ok(program)
}
