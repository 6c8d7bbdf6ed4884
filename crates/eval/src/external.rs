//! Functions shipped as executables in modules
//! (`MODULE/lib/marionette/functions/NAME`, called as `MODULE::NAME`).
//!
//! The evaluator finds the file and checks types; running the process is
//! the plugin host's job, behind [`ExternalFunctions`], so that this crate
//! knows nothing of processes or the protocol.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_diagnostics::Span;
use marionette_values::{PType, Value};

use crate::error::{EvalResult, fail_in_call};
use crate::evaluator::{Evaluator, a_type, describe_actual};

/// Runs executable functions for the evaluator.
pub trait ExternalFunctions: Send + Sync {
    /// Starts the function at `path` (once per compilation) and returns
    /// what it declares.
    fn signature(&self, name: &str, path: &Path) -> Result<Signature, String>;

    /// Calls it with arguments already checked against the signature.
    fn call(&self, name: &str, path: &Path, arguments: &[Value]) -> Result<Value, String>;
}

/// What an executable function declares: its parameters, in order, and
/// the type of its result (types as Puppet source text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    pub parameters: Vec<Parameter>,
    pub returns: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: String,
    pub type_text: String,
    /// Takes every remaining argument (only the last parameter).
    pub repeated: bool,
}

/// A loaded executable function, its types parsed.
pub(crate) struct Loaded {
    path: PathBuf,
    parameters: Vec<(String, PType, bool)>,
    returns: Option<PType>,
}

/// Where the executable for `name` would be: `mod::a::b` is
/// `mod/lib/marionette/functions/a/b`.
fn relative_path(name: &str) -> Option<(String, PathBuf)> {
    let mut segments = name.split("::");
    let module = segments.next()?.to_string();
    let rest: Vec<&str> = segments.collect();
    if rest.is_empty()
        || rest
            .iter()
            .any(|s| s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return None;
    }
    let mut path = PathBuf::from("lib/marionette/functions");
    path.extend(rest);
    Some((module, path))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl<'p> Evaluator<'p> {
    /// Finds and starts the executable function `name`, if a module ships
    /// one. `Ok(false)` when there is none.
    pub(crate) fn load_external(&mut self, name: &str, span: Span) -> EvalResult<bool> {
        if self.external_loaded.contains_key(name) {
            return Ok(true);
        }
        let (Some(loader), Some(runner)) = (&self.loader, &self.external) else {
            return Ok(false);
        };
        let Some((module, relative)) = relative_path(&name.to_lowercase()) else {
            return Ok(false);
        };
        let Some(path) = loader.module_dir(&module).map(|dir| dir.join(relative)) else {
            return Ok(false);
        };
        if !is_executable(&path) {
            return Ok(false);
        }
        let runner = runner.clone();
        let signature = match runner.signature(name, &path) {
            Ok(signature) => signature,
            Err(message) => return fail_in_call(message, span),
        };
        let parse = |text: &str, what: &str| {
            marionette_values::parse_type(text).map_err(|e| {
                format!(
                    "{} declares {what} of an invalid type '{text}': {e}",
                    path.display()
                )
            })
        };
        let mut parameters = Vec::new();
        for (index, parameter) in signature.parameters.iter().enumerate() {
            if parameter.repeated && index + 1 != signature.parameters.len() {
                return fail_in_call(
                    format!(
                        "{} declares the repeated parameter '{}' before others; only the last may be repeated",
                        path.display(),
                        parameter.name
                    ),
                    span,
                );
            }
            let what = format!("the parameter '{}'", parameter.name);
            match parse(&parameter.type_text, &what) {
                Ok(t) => parameters.push((parameter.name.clone(), t, parameter.repeated)),
                Err(message) => return fail_in_call(message, span),
            }
        }
        let returns = match signature.returns.as_deref().map(|t| parse(t, "a result")) {
            Some(Err(message)) => return fail_in_call(message, span),
            Some(Ok(t)) => Some(t),
            None => None,
        };
        self.external_loaded.insert(
            name.to_string(),
            Arc::new(Loaded {
                path,
                parameters,
                returns,
            }),
        );
        Ok(true)
    }

    /// Calls a loaded executable function: arguments checked against its
    /// parameters, the result against its return type.
    pub(crate) fn call_external(
        &mut self,
        name: &str,
        args: Vec<Value>,
        span: Span,
    ) -> EvalResult<Value> {
        let Some(function) = self.external_loaded.get(name).cloned() else {
            return fail_in_call(format!("Unknown function: '{name}'."), span);
        };
        let Some(runner) = self.external.clone() else {
            return fail_in_call(format!("Unknown function: '{name}'."), span);
        };
        let repeated = function.parameters.last().is_some_and(|p| p.2);
        let required = function
            .parameters
            .iter()
            .take_while(|(_, t, repeated)| !*repeated && !t.is_instance(&Value::Undef))
            .count();
        let max = function.parameters.len();
        if args.len() < required || (!repeated && args.len() > max) {
            let expected = match (repeated, required == max) {
                (true, _) => format!("at least {required}"),
                (false, true) => format!("{max}"),
                (false, false) => format!("between {required} and {max}"),
            };
            return fail_in_call(
                format!("'{name}' expects {expected} arguments, got {}", args.len()),
                span,
            );
        }
        for (index, arg) in args.iter().enumerate() {
            let (parameter, expected, _) = &function.parameters[index.min(max - 1)];
            if !expected.is_instance(arg) {
                return fail_in_call(
                    format!(
                        "'{name}' parameter '{parameter}' expects {} value, got {}",
                        a_type(expected),
                        describe_actual(expected, arg)
                    ),
                    span,
                );
            }
        }
        let value = match runner.call(name, &function.path, &args) {
            Ok(value) => value,
            Err(message) => return fail_in_call(message, span),
        };
        if let Some(expected) = &function.returns
            && !expected.is_instance(&value)
        {
            return fail_in_call(
                format!(
                    "value returned from {name} ({}) has wrong type, expects {} value, got {}",
                    function.path.display(),
                    a_type(expected),
                    describe_actual(expected, &value)
                ),
                span,
            );
        }
        Ok(value)
    }
}
