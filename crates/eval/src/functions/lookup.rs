//! Hiera in the language: `lookup()` in all its forms, the legacy
//! `hiera`, `hiera_array`, `hiera_hash` and `hiera_include`, and the
//! automatic lookup of class parameters. The data itself is the hiera
//! crate's; this file adapts calls to it and gives it the scope
//! (`HieraScope`).

use std::path::PathBuf;

use marionette_diagnostics::Span;
use marionette_hiera::{Explainer, FunctionOutcome, Merge, Request};
use marionette_values::{PHash, PType, Value};

use super::{Builtin, Call};
use crate::error::{EvalResult, Stop, fail_in_call};
use crate::evaluator::{Closure, DataFunction, Evaluator, mismatch_text, strip_top};
use crate::scope::{ScopeId, TOP_SCOPE};

pub(crate) fn register(map: &mut std::collections::HashMap<&'static str, Builtin>) {
    map.insert("lookup", lookup);
    map.insert("hiera", hiera);
    map.insert("hiera_array", hiera_array);
    map.insert("hiera_hash", hiera_hash);
    map.insert("hiera_include", hiera_include);
}

/// One `lookup()` as Puppet's `Lookup.lookup` runs it: the names in
/// order, then the defaults.
pub(crate) struct LookupCall<'p> {
    /// The name argument as given (a string or an array), for the lambda.
    pub(crate) name_arg: Value,
    pub(crate) names: Vec<String>,
    pub(crate) value_type: Option<PType>,
    pub(crate) merge: Option<Merge>,
    pub(crate) default: Option<Value>,
    pub(crate) default_values: Option<PHash>,
    pub(crate) overrides: Option<PHash>,
    pub(crate) lambda: Option<Closure<'p>>,
    /// A legacy `hiera_*` call.
    pub(crate) legacy: bool,
}

/// The scope a lookup interpolates in, and the compiler's services.
pub(crate) struct HieraScope<'a, 'p> {
    pub(crate) eval: &'a mut Evaluator<'p>,
    pub(crate) scope: ScopeId,
    pub(crate) span: Span,
    /// A class's scope before its title and name are set: `$title` and
    /// `$name` come from the scopes above, as in Puppet's automatic
    /// parameter lookup.
    pub(crate) untitled: bool,
}

impl HieraScope<'_, '_> {
    /// The scope an unqualified variable is read from.
    fn scope_of(&self, name: &str) -> Option<ScopeId> {
        if self.untitled && matches!(name, "title" | "name") {
            return self.eval.scopes.get(self.scope).parent;
        }
        Some(self.scope)
    }
}

impl marionette_hiera::Scope for HieraScope<'_, '_> {
    fn variable(&mut self, name: &str) -> Option<Value> {
        let eval = &*self.eval;
        if let Some(top) = name.strip_prefix("::")
            && !top.contains("::")
        {
            let found = self.eval.top_variable(top);
            if found.is_none() {
                self.eval
                    .warn_once(&format!("Undefined variable '{name}'; "));
            }
            return found;
        }
        let name = name.trim_start_matches("::");
        if let Some((class, variable)) = name.rsplit_once("::") {
            let Some(&scope) = eval.class_scopes.get(class) else {
                let known = matches!(self.eval.find_class(class), Ok(Some(_)));
                let reason = if known {
                    "has not been evaluated"
                } else {
                    "could not be found"
                };
                self.eval.warn_once(&format!(
                    "Undefined variable '{name}'; class {class} {reason}"
                ));
                return None;
            };
            let found = eval.scopes.get(scope).variables.get(variable).cloned();
            if found.is_none() {
                self.eval
                    .warn_once(&format!("Undefined variable '{name}'; "));
            }
            return found;
        }
        let scope = self.scope_of(name)?;
        let found = self.eval.visible_variable(scope, name);
        if found.is_none() {
            // Puppet warns of an unknown variable once per name.
            self.eval
                .warn_once(&format!("Undefined variable '{name}'; "));
        }
        found
    }

    fn variable_for_key(&mut self, name: &str, key: &str) -> Option<Value> {
        if self.eval.pending_facts.is_some() && strip_top(name) == "facts" {
            return Some(self.eval.facts_for_key(key));
        }
        self.variable(name)
    }

    fn module_dir(&mut self, name: &str) -> Option<PathBuf> {
        self.eval.loader.as_ref()?.module_dir(name)
    }

    fn call_function(
        &mut self,
        kind: &str,
        name: &str,
        module: Option<&str>,
        mut args: Vec<Value>,
    ) -> FunctionOutcome {
        let span = self.span;
        match self.eval.data_function(name, span) {
            Ok(DataFunction::Unknown) => FunctionOutcome::Unknown,
            Ok(found) => {
                if let DataFunction::Puppet(declared) = found {
                    // A declared return type must promise data, as Puppet
                    // checks before calling.
                    if let Some(declared) = declared
                        && let Some(problem) = undeclared_data(kind, name, &declared)
                    {
                        return FunctionOutcome::Invalid(problem);
                    }
                    // The lookup context, which functions declare last.
                    args.push(context_value(name, module, &self.eval.environment));
                }
                let saved = std::mem::replace(&mut self.eval.current, self.scope);
                let result = self.eval.call_named(name, args, None, span, span);
                self.eval.current = saved;
                match result {
                    Ok(value) => FunctionOutcome::Value(value),
                    Err(Stop::Error(error)) if error.message == NOT_FOUND => {
                        FunctionOutcome::NotFound
                    }
                    Err(Stop::Error(error)) => FunctionOutcome::Failed(error.message),
                    Err(_) => FunctionOutcome::Failed(format!("'{name}' did not return a value")),
                }
            }
            Err(Stop::Error(error)) => FunctionOutcome::Failed(error.message),
            Err(_) => FunctionOutcome::Unknown,
        }
    }

    fn convert_to(
        &mut self,
        type_name: &str,
        value: Value,
        args: &[Value],
    ) -> Result<Value, String> {
        let target = match marionette_values::parse_type(type_name) {
            Ok(t) => t,
            Err(_) => self
                .eval
                .resolve_type_name(type_name, self.span)
                .map_err(stop_message)?,
        };
        let mut all = vec![value];
        all.extend(args.iter().cloned());
        super::types::new_value(self.eval, &target, all, self.span).map_err(stop_message)
    }
}

/// Why a Puppet data provider function's declared return type does not
/// promise what Hiera needs: a hash of data for `data_hash`, data for the
/// others.
fn undeclared_data(kind: &str, name: &str, declared: &PType) -> Option<String> {
    let (needed, label) = if kind == "data_hash" {
        (
            PType::hash_of(
                PType::Variant(vec![PType::string(), PType::Numeric]),
                PType::RichData,
            ),
            "Hash[RichDataKey, RichData]",
        )
    } else {
        (PType::RichData, "RichData")
    };
    (!needed.is_assignable(declared)).then(|| {
        format!(
            "Return type of '{kind}' function named '{name}' is incorrect, expects a {label} value, got {declared}"
        )
    })
}

/// The marker of a lookup context value, and what `not_found` raises.
const CONTEXT_KEY: &str = "__lookup_context";
const NOT_FOUND: &str = "__lookup_context_not_found";

/// The `Puppet::LookupContext` a data provider function is given: a hash
/// marked as such, whose methods `context_method` answers.
fn context_value(function: &str, module: Option<&str>, environment: &str) -> Value {
    let mut hash = PHash::new();
    hash.insert(Value::string(CONTEXT_KEY), Value::string(function));
    hash.insert(
        Value::string("environment_name"),
        Value::string(environment),
    );
    hash.insert(
        Value::string("module_name"),
        module.map_or(Value::Undef, Value::string),
    );
    Value::hash(hash)
}

/// A method of the lookup context (`$context.not_found()`,
/// `$context.cache(k, v)`, ...), or `None` when the receiver is no
/// context.
pub(crate) fn context_method(
    eval: &mut Evaluator<'_>,
    method: &str,
    args: &[Value],
    span: Span,
) -> Option<EvalResult<Value>> {
    let Some(Value::Hash(context)) = args.first() else {
        return None;
    };
    let Some(Value::String(function)) = context.get(&Value::string(CONTEXT_KEY)) else {
        return None;
    };
    let function = function.to_string();
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let cache = eval.lookup_caches.entry(function).or_default();
    let value = match method {
        "not_found" => return Some(fail_in_call(NOT_FOUND, span)),
        "environment_name" | "module_name" => context
            .get(&Value::string(method))
            .cloned()
            .unwrap_or(Value::Undef),
        "cache" => {
            cache.insert(arg(1), arg(2));
            arg(2)
        }
        "cache_all" => {
            if let Value::Hash(all) = arg(1) {
                for (k, v) in all.iter() {
                    cache.insert(k.clone(), v.clone());
                }
            }
            Value::Undef
        }
        "cache_has_key" => Value::Boolean(cache.contains_key(&arg(1))),
        "cached_value" => cache.get(&arg(1)).cloned().unwrap_or(Value::Undef),
        "cached_entries" => Value::hash(cache.clone()),
        // Interpolation needs the lookup under way; values are returned
        // as they are. Explanations from functions are not recorded.
        "interpolate" => arg(1),
        "explain" => Value::Undef,
        _ => return None,
    };
    Some(Ok(value))
}

fn stop_message(stop: Stop) -> String {
    match stop {
        Stop::Error(error) => error.message,
        _ => "unexpected control flow".to_string(),
    }
}

impl<'p> Evaluator<'p> {
    /// Looks up one key in Hiera from `scope`: `Ok(None)` when not found.
    pub(crate) fn hiera_lookup(
        &mut self,
        key: &str,
        merge: Option<Merge>,
        legacy: bool,
        scope: ScopeId,
        span: Span,
        explain: Option<&mut Explainer>,
    ) -> EvalResult<Option<Value>> {
        let request = Request { key, merge, legacy };
        self.hiera_request(&request, scope, false, span, explain)
    }

    fn hiera_request(
        &mut self,
        request: &Request<'_>,
        scope: ScopeId,
        untitled: bool,
        span: Span,
        explain: Option<&mut Explainer>,
    ) -> EvalResult<Option<Value>> {
        let Some(session) = self.hiera.clone() else {
            return Ok(None);
        };
        let result = {
            let mut hiera_scope = HieraScope {
                eval: self,
                scope,
                span,
                untitled,
            };
            session.lookup(request, &mut hiera_scope, explain)
        };
        for warning in session.take_warnings() {
            self.warn_with_file(&warning.message, warning.file.as_deref());
        }
        result.or_else(|error| lookup_failure(&error, span))
    }

    /// Runs a whole `lookup()` call.
    pub(crate) fn run_lookup(
        &mut self,
        call: LookupCall<'p>,
        scope: ScopeId,
        span: Span,
        explain: Option<&mut Explainer>,
    ) -> EvalResult<Value> {
        let names = call.names.clone();
        match self.find_lookup(call, scope, span, explain)? {
            Some(value) => Ok(value),
            None => not_found(&names, span),
        }
    }

    /// A `lookup()` call's value: `Ok(None)` when no name, default or
    /// block gave one.
    fn find_lookup(
        &mut self,
        call: LookupCall<'p>,
        scope: ScopeId,
        span: Span,
        mut explain: Option<&mut Explainer>,
    ) -> EvalResult<Option<Value>> {
        let check = |what: &str, value: Value| -> EvalResult<Option<Value>> {
            match &call.value_type {
                Some(t) if !t.is_instance(&value) => fail_in_call(
                    format!("{what} has wrong type, {}", mismatch_text(t, &value)),
                    span,
                ),
                _ => Ok(Some(value)),
            }
        };
        for name in &call.names {
            if let Some(value) = call
                .overrides
                .as_ref()
                .and_then(|o| o.get(&Value::string(name.as_str())))
            {
                return check(
                    &format!("Value found for key '{name}' in override hash"),
                    value.clone(),
                );
            }
            if let Some(value) = self.hiera_lookup(
                name,
                call.merge.clone(),
                call.legacy,
                scope,
                span,
                explain.as_deref_mut(),
            )? {
                return check("Found value", value);
            }
        }
        if let Some(defaults) = &call.default_values {
            for name in &call.names {
                if let Some(value) = defaults.get(&Value::string(name.as_str())) {
                    return check(
                        &format!("Value found for key '{name}' in default values hash"),
                        value.clone(),
                    );
                }
            }
        }
        if let Some(lambda) = call.lambda {
            let value = self.call_lambda(&lambda, vec![call.name_arg.clone()], span)?;
            return check("Value returned from default block", value);
        }
        if let Some(default) = call.default.clone() {
            return check("Default value", default);
        }
        Ok(None)
    }

    /// Automatic parameter lookup: `<class>::<param>` from Hiera, with the
    /// merge `lookup_options` give, interpolated in the class's scope
    /// (the current one) as Puppet looks it up: with its `$module_name`
    /// and `$caller_module_name`, but not yet its title and name.
    pub(crate) fn lookup_class_parameter(
        &mut self,
        class: &str,
        param: &str,
        span: Span,
    ) -> EvalResult<Option<Value>> {
        if self.hiera.is_none() {
            return Ok(None);
        }
        let key = format!("{class}::{param}");
        let request = Request {
            key: &key,
            merge: None,
            legacy: false,
        };
        self.hiera_request(&request, self.current, true, span, None)
    }
}

/// A Hiera error as the compiler reports it: a data provider function's
/// failure, and any error the global layer names its key in, is the
/// failure of the call; the others (bad data or configuration of the
/// environment's and modules' layers) concern the whole compilation and
/// carry only their own file, as Puppet's lookup errors do.
fn lookup_failure<T>(error: &marionette_hiera::HieraError, span: Span) -> EvalResult<T> {
    if error.of_the_call
        || matches!(
            error.kind,
            marionette_hiera::ErrorKind::Function
                | marionette_hiera::ErrorKind::Merge
                | marionette_hiera::ErrorKind::Assertion
        )
    {
        return fail_in_call(error.to_string(), span);
    }
    let mut failure = crate::error::EvalError::new(error.to_string(), span);
    failure.unlocated = true;
    // Configuration errors carry an issue of their own in Puppet; the
    // others are plain lookup errors.
    failure.lookup = error.kind != marionette_hiera::ErrorKind::Config;
    Err(Stop::Error(failure))
}

/// A lookup that found nothing, as Puppet reports it.
fn not_found<T>(names: &[String], span: Span) -> EvalResult<T> {
    let mut failure = crate::error::EvalError::new(not_found_message(names), span);
    failure.unlocated = true;
    failure.lookup = true;
    Err(Stop::Error(failure))
}

/// Puppet's words for a lookup that found nothing.
pub(crate) fn not_found_message(names: &[String]) -> String {
    match names {
        [one] => format!("Function lookup() did not find a value for the name '{one}'"),
        many => format!(
            "Function lookup() did not find a value for any of the names [{}]",
            many.iter()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The name argument: a string or an array of strings.
fn names(call: &Call<'_, '_>, value: &Value) -> EvalResult<Vec<String>> {
    match value {
        Value::String(s) => Ok(vec![s.to_string()]),
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.to_string()),
                _ => call.mismatch("name", "String or Array", 0),
            })
            .collect(),
        _ => call.mismatch("name", "String or Array", 0),
    }
}

fn merge_arg(call: &Call<'_, '_>, value: &Value) -> EvalResult<Option<Merge>> {
    Merge::from_value(value).or_else(|e| call.error(e.message))
}

/// `lookup(name, [type], [merge], [default])`, `lookup(name, options)`,
/// `lookup(options)`, and the forms with a block for the default.
fn lookup<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(4))?;
    let args = call.args.clone();
    let mut lookup = LookupCall {
        name_arg: args[0].clone(),
        names: Vec::new(),
        value_type: None,
        merge: None,
        default: None,
        default_values: None,
        overrides: None,
        lambda: call.lambda,
        legacy: false,
    };
    let options = match (&args[0], args.get(1)) {
        (Value::Hash(options), None) => Some((**options).clone()),
        (_, Some(Value::Hash(options))) if args.len() == 2 => {
            lookup.names = names(call, &args[0])?;
            Some((**options).clone())
        }
        _ => None,
    };
    match options {
        Some(options) => {
            for (k, v) in options.iter() {
                match (marionette_values::format::to_s(k).as_str(), v) {
                    ("name", name) => {
                        lookup.name_arg = name.clone();
                        lookup.names = names(call, name)?;
                    }
                    ("value_type", Value::Type(t)) => lookup.value_type = Some((**t).clone()),
                    ("merge", m) => lookup.merge = merge_arg(call, m)?,
                    ("default_value", d) => lookup.default = Some(d.clone()),
                    ("default_values_hash", Value::Hash(h)) => {
                        lookup.default_values = Some((**h).clone())
                    }
                    ("override", Value::Hash(h)) => lookup.overrides = Some((**h).clone()),
                    (other, _) => {
                        return call.error(format!(
                            "'lookup' parameter 'options' has wrong type, unrecognized key '{other}'"
                        ));
                    }
                }
            }
            if lookup.names.is_empty() {
                return call.error("'lookup' expects a value for key 'name'");
            }
        }
        None => {
            lookup.names = names(call, &args[0])?;
            let mut rest = args[1..].iter().peekable();
            match rest.peek() {
                Some(Value::Type(t)) => {
                    lookup.value_type = Some((**t).clone());
                    rest.next();
                }
                // With a default given, every place is taken, an undef
                // type or merge included (Puppet's four-argument form).
                Some(Value::Undef) if args.len() == 4 => {
                    rest.next();
                }
                _ => {}
            }
            if let Some(m) = rest.next() {
                lookup.merge = merge_arg(call, m)?;
            }
            if let Some(d) = rest.next() {
                if call.lambda.is_some() {
                    return call.error("'lookup' does not accept both a default value and a block");
                }
                lookup.default = Some(d.clone());
            }
        }
    }
    let scope = eval.current;
    eval.run_lookup(lookup, scope, call.span, None)
}

/// The legacy functions: a key, an optional default, and an optional
/// override (a hierarchy level of Hiera 3, which has no meaning in Hiera
/// 5 and is ignored).
fn legacy<'p>(
    eval: &mut Evaluator<'p>,
    call: &mut Call<'_, 'p>,
    merge: Option<Merge>,
    function: &str,
) -> EvalResult<Value> {
    call.arity(1, Some(3))?;
    eval.warn_once(&format!(
        "The function '{function}' is deprecated in favor of using 'lookup'. See https://puppet.com/docs/puppet/7/deprecated_language.html"
    ));
    let lookup = LookupCall {
        name_arg: call.args[0].clone(),
        names: names(call, &call.args[0])?,
        value_type: None,
        merge,
        default: call.args.get(1).cloned(),
        default_values: None,
        overrides: None,
        lambda: call.lambda,
        legacy: true,
    };
    let scope = eval.current;
    eval.run_lookup(lookup, scope, call.span, None)
}

fn hiera<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    legacy(eval, call, None, "hiera")
}

fn hiera_array<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    legacy(eval, call, Some(Merge::Unique), "hiera_array")
}

fn hiera_hash<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    legacy(eval, call, Some(Merge::Hash), "hiera_hash")
}

/// Includes the classes an array merge of the key names.
fn hiera_include<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    let classes = legacy(eval, call, Some(Merge::Unique), "hiera_include")?;
    let span = call.span;
    for class in crate::compiler::resources::flat_strings(&classes) {
        eval.include_class(&class, span)?;
    }
    Ok(Value::Undef)
}

use crate::LookupFailure;

impl Evaluator<'_> {
    /// `marionette lookup`: the query's keys looked up in the top scope.
    pub(crate) fn lookup_query(
        &mut self,
        query: &crate::LookupQuery,
        explain: Option<&mut Explainer>,
    ) -> Result<Option<Value>, LookupFailure> {
        let span = Span::default();
        let message = |stop: Stop| match stop {
            Stop::Error(error) => error.message,
            _ => "unexpected control flow".to_string(),
        };
        let value_type = match &query.value_type {
            Some(text) => Some(match marionette_values::parse_type(text) {
                Ok(t) => t,
                Err(_) => self
                    .resolve_type_name(text, span)
                    .map_err(|stop| LookupFailure::Loud(message(stop)))?,
            }),
            None => None,
        };
        let merge = match &query.merge {
            Some(merge) => Merge::from_value(merge).map_err(|e| LookupFailure::Loud(e.message))?,
            None => None,
        };
        let call = LookupCall {
            name_arg: Value::array(
                query
                    .keys
                    .iter()
                    .map(|k| Value::string(k.as_str()))
                    .collect(),
            ),
            names: query.keys.clone(),
            value_type,
            merge,
            default: query.default.clone(),
            default_values: None,
            overrides: None,
            lambda: None,
            legacy: false,
        };
        match self.find_lookup(call, TOP_SCOPE, span, explain) {
            Ok(value) => Ok(value),
            // Puppet's lookup errors (data, configuration, types) end the
            // command quietly, unless explained.
            Err(Stop::Error(error)) if error.unlocated => Err(LookupFailure::Quiet(error.message)),
            Err(stop) => Err(LookupFailure::Loud(message(stop))),
        }
    }
}
