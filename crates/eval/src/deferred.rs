//! Deferred calls, made by the agent just before it applies a catalog.
//!
//! `Deferred('vault_lookup', [...])` travels in the catalog as a call, not
//! as its result, so that secrets and node-local data are fetched on the
//! node. The apply side hands each call here with its arguments already
//! resolved; this module runs it as the compiler would have: built-in
//! functions, functions in Puppet and in Ruby from the modules (a
//! namespaced one from any module's `lib`, as an agent's libdir holds
//! them), and functions modules ship as executables. `Deferred('$name')`
//! reads a fact.

use std::path::PathBuf;
use std::sync::Arc;

use marionette_diagnostics::{SourceFile, Span};
use marionette_values::Value;

use crate::error::Stop;
use crate::evaluator::Evaluator;
use crate::external::ExternalFunctions;

/// What the agent offers deferred calls.
#[derive(Clone)]
pub struct DeferredContext {
    /// The facts, converted once for all the calls of a run; each is a
    /// top-scope variable, as when compiling.
    facts: Value,
    modulepath: Vec<PathBuf>,
    environment: String,
    external_functions: Option<Arc<dyn ExternalFunctions>>,
    /// The host that runs the modules' Ruby functions (mysql's password
    /// hash, vault_lookup's lookup), when Ruby is at hand.
    ruby: Option<Arc<marionette_ruby::RubyHost>>,
}

impl DeferredContext {
    /// `facts` as plain data, as the compiler takes them.
    pub fn new(
        facts: serde_json::Map<String, serde_json::Value>,
        modulepath: Vec<PathBuf>,
        environment: String,
        external_functions: Option<Arc<dyn ExternalFunctions>>,
        ruby: Option<Arc<marionette_ruby::RubyHost>>,
    ) -> DeferredContext {
        DeferredContext {
            facts: marionette_catalog::from_data(&serde_json::Value::Object(facts)),
            modulepath,
            environment,
            external_functions,
            ruby,
        }
    }
}

/// Makes one deferred call; the error is the message Puppet's agent prints.
pub fn call_deferred(
    context: &DeferredContext,
    name: &str,
    arguments: Vec<Value>,
) -> Result<Value, String> {
    let file = SourceFile::new("<deferred>", "");
    let sources = crate::loader::Sources::new();
    let mut evaluator = Evaluator::new(&file);
    evaluator.environment = context.environment.clone();
    evaluator.loader = Some(crate::loader::Loader::new(
        &sources,
        context.modulepath.clone(),
    ));
    evaluator.external = context.external_functions.clone();
    evaluator.ruby.host = context.ruby.clone();
    evaluator.ruby.any_lib = true;
    evaluator.set_facts(context.facts.clone());
    if let Some(variable) = name.strip_prefix('$') {
        return Ok(evaluator.lookup_quietly(variable).unwrap_or(Value::Undef));
    }
    let nowhere = Span::new(0, 0);
    match evaluator.call_named(name, arguments, None, nowhere, nowhere) {
        Ok(value) => Ok(value),
        Err(Stop::Error(error)) if error.message.starts_with("Unknown function: ") => {
            Err(format!("Unknown function '{name}'"))
        }
        Err(Stop::Error(error)) => Err(error.message),
        Err(Stop::Break(_)) => Err(format!("break() from the deferred function '{name}'")),
        Err(Stop::Next(value, _) | Stop::Return(value, _)) => Ok(value),
    }
}
