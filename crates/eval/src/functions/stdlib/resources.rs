//! stdlib's functions that declare resources only when they are not
//! declared yet: `defined_with_params`, `ensure_resource`,
//! `ensure_resources` and `ensure_packages` (also as
//! `stdlib::ensure_packages`).

use std::collections::HashMap;

use marionette_values::format::to_s;
use marionette_values::{PHash, PType, Value};

use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("defined_with_params", defined_with_params);
    map.insert("ensure_resource", ensure_resource);
    map.insert("ensure_resources", ensure_resources);
    map.insert("ensure_packages", ensure_packages);
    map.insert("stdlib::ensure_packages", ensure_packages);
    map.insert("getparam", getparam);
}

/// A parameter of a declared resource, or an empty string when the
/// resource or the parameter is not there.
fn getparam(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let target = call.args.first().cloned().unwrap_or(Value::Undef);
    if matches!(target, Value::Undef | Value::Boolean(false)) {
        return call.error("Must specify a reference");
    }
    let Some(Value::String(param)) = call.args.get(1) else {
        return call.error("Must specify name of a parameter");
    };
    if param.is_empty() {
        return Ok(Value::string(""));
    }
    let found = reference(&target)
        .and_then(|(type_name, title)| eval.declared_param(&type_name, &title, param))
        .flatten();
    Ok(match found {
        Some(value) if !value.is_undef() => value,
        _ => Value::string(""),
    })
}

/// `Type[title]` as a type and a title; a reference value or its text.
fn reference(value: &Value) -> Option<(String, String)> {
    match value {
        Value::Type(t) => match &**t {
            PType::Resource {
                type_name: Some(type_name),
                title: Some(title),
            } => Some((type_name.clone(), title.clone())),
            PType::Class(Some(name)) => Some(("class".into(), name.clone())),
            _ => None,
        },
        Value::String(text) => {
            let (type_name, rest) = text.split_once('[')?;
            let title = rest.strip_suffix(']')?;
            let title = title.trim_matches(|c| c == '\'' || c == '"');
            Some((type_name.to_lowercase(), title.to_string()))
        }
        _ => None,
    }
}

/// Whether a resource is declared with (at least) the given parameters;
/// undef matches a parameter not set.
fn declared_with(eval: &Evaluator<'_>, type_name: &str, title: &str, params: &PHash) -> bool {
    let declared = eval.declared_param(type_name, title, "ensure").is_some();
    declared
        && params.iter().all(|(k, wanted)| {
            let found = eval.declared_param(type_name, title, &to_s(k)).flatten();
            let found_undef = found.as_ref().is_none_or(Value::is_undef);
            (found_undef && wanted.is_undef()) || found.as_ref() == Some(wanted)
        })
}

fn params_arg(call: &Call<'_, '_>, index: usize) -> EvalResult<PHash> {
    match call.args.get(index) {
        None | Some(Value::Undef) => Ok(PHash::new()),
        Some(Value::String(s)) if s.is_empty() => Ok(PHash::new()),
        Some(Value::Hash(h)) => Ok((**h).clone()),
        Some(_) => call.mismatch("params", "Hash", index),
    }
}

fn defined_with_params(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let Some(target) = call.args.first() else {
        return call.error("Must specify a reference");
    };
    let params = params_arg(call, 1)?;
    Ok(Value::Boolean(match reference(target) {
        Some((type_name, title)) => declared_with(eval, &type_name, &title, &params),
        None => false,
    }))
}

/// Declares `type[title]` (each title of an array) with the parameters,
/// unless it is declared with them already.
fn ensure_resource(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let type_name = match call.args.first() {
        Some(Value::String(s)) if !s.is_empty() => s.to_string(),
        _ => return call.error("Must specify a type"),
    };
    let titles = match call.args.get(1) {
        Some(Value::Array(items)) => items.to_vec(),
        Some(Value::Undef) | None => return call.error("Must specify a title"),
        Some(other) => vec![other.clone()],
    };
    let params = params_arg(call, 2)?;
    for title in titles {
        ensure_one(eval, &type_name, &title, &params, call.span)?;
    }
    Ok(Value::Undef)
}

fn ensure_one(
    eval: &mut Evaluator<'_>,
    type_name: &str,
    title: &Value,
    params: &PHash,
    span: marionette_diagnostics::Span,
) -> EvalResult<()> {
    let type_name = type_name.to_lowercase();
    if declared_with(eval, &type_name, &to_s(title), params) {
        return Ok(());
    }
    eval.declare_from_function(&type_name, title, params, span)
}

/// `ensure_resource` for each title of a hash, its parameters over the
/// defaults.
fn ensure_resources(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let type_name = match call.args.first() {
        Some(Value::String(s)) if !s.is_empty() => s.to_string(),
        _ => return call.error("Must specify a type"),
    };
    let Some(Value::Hash(titles)) = call.args.get(1) else {
        return call.error("second argument must be a hash");
    };
    let titles = titles.clone();
    let defaults = params_arg(call, 2)?;
    for (title, params) in titles.iter() {
        let mut merged = defaults.clone();
        if let Value::Hash(params) = params {
            for (k, v) in params.iter() {
                merged.insert(k.clone(), v.clone());
            }
        }
        ensure_one(eval, &type_name, title, &merged, call.span)?;
    }
    Ok(Value::Undef)
}

/// Packages declared `ensure => installed` (or with the attributes given)
/// unless they are declared so already.
fn ensure_packages(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    let mut defaults = PHash::new();
    defaults.insert(Value::string("ensure"), Value::string("installed"));
    if let Some(Value::Hash(given)) = call.args.get(1) {
        for (k, v) in given.iter() {
            defaults.insert(k.clone(), v.clone());
        }
        if defaults.get(&Value::string("ensure")) == Some(&Value::string("present")) {
            defaults.insert(Value::string("ensure"), Value::string("installed"));
        }
    }
    match &call.args[0] {
        Value::Hash(packages) => {
            for (name, params) in packages.iter() {
                let mut merged = defaults.clone();
                if let Value::Hash(params) = params {
                    for (k, v) in params.iter() {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                ensure_one(eval, "package", name, &merged, call.span)?;
            }
        }
        Value::Array(names) => {
            for name in names.iter() {
                ensure_one(eval, "package", name, &defaults, call.span)?;
            }
        }
        Value::String(name) if !name.is_empty() => {
            ensure_one(
                eval,
                "package",
                &Value::String(name.clone()),
                &defaults,
                call.span,
            )?;
        }
        _ => {
            return call.mismatch(
                "packages",
                "Variant[String[1], Array[String[1]], Hash[String[1], Any]]",
                0,
            );
        }
    }
    Ok(Value::Undef)
}
