//! stdlib's functions of single values: choosing (`pick`,
//! `pick_default`), testing (`is_a`), converting booleans (`bool2str`,
//! `str2bool`), paths (`dirname`, `basename`) and facts (`fact`).

use std::collections::HashMap;

use marionette_values::Value;

use crate::error::EvalResult;
use crate::evaluator::Evaluator;
use crate::functions::{Builtin, Call};

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("pick", pick);
    map.insert("pick_default", pick_default);
    map.insert("is_a", is_a);
    map.insert("bool2str", bool2str);
    map.insert("str2bool", str2bool);
    map.insert("dirname", dirname);
    map.insert("basename", basename);
    map.insert("fact", fact);
    map.insert("type_of", type_of);
    map.insert("stdlib::type_of", type_of);
}

/// Whether stdlib's older functions take a value as given: undef reaches
/// them as an empty string, and both count as nothing.
fn given(value: &Value) -> bool {
    !matches!(value, Value::Undef) && !matches!(value, Value::String(s) if s.is_empty())
}

/// The first argument that is neither undef nor empty.
/// The value's type in detail (Puppet's `infer_set`), as the core
/// `type` function gives it by default.
fn type_of(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    Ok(Value::Type(Box::new(marionette_values::PType::infer(
        &call.args[0],
    ))))
}

fn pick(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    match call.args.iter().find(|v| given(v)) {
        Some(value) => Ok(value.clone()),
        None => call.error("pick(): must receive at least one non empty value"),
    }
}

/// The first argument that is neither undef nor empty, else the last one.
fn pick_default(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let Some((default, rest)) = call.args.split_last() else {
        return call.error("Must receive at least one argument.");
    };
    Ok(rest.iter().find(|v| given(v)).unwrap_or(default).clone())
}

fn is_a(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(2, Some(2))?;
    match &call.args[1] {
        Value::Type(t) => Ok(Value::Boolean(t.is_instance(&call.args[0]))),
        _ => call.mismatch("type", "Type", 1),
    }
}

fn bool2str(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let count = call.args.len();
    if count != 1 && count != 3 {
        return call.error(format!(
            "bool2str(): Wrong number of arguments given ({count} for 3)"
        ));
    }
    let Value::Boolean(value) = call.args[0] else {
        return call.error("bool2str(): Requires a boolean to work with");
    };
    let word = |index: usize, default: &str| match call.args.get(index) {
        None => Some(Value::string(default)),
        Some(s @ Value::String(_)) => Some(s.clone()),
        Some(_) => None,
    };
    match (word(1, "true"), word(2, "false")) {
        (Some(yes), Some(no)) => Ok(if value { yes } else { no }),
        _ => call.error("bool2str(): Requires strings to convert to"),
    }
}

fn str2bool(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let Some(value) = call.args.first() else {
        return call.error("str2bool(): Wrong number of arguments given (0 for 1)");
    };
    let text = match value {
        Value::Boolean(b) => return Ok(Value::Boolean(*b)),
        // Undef reaches stdlib as an empty string.
        Value::Undef => String::new(),
        Value::String(s) => s.to_string(),
        _ => return call.error("str2bool(): Requires string to work with"),
    };
    match text_bool(&text) {
        Some(b) => Ok(Value::Boolean(b)),
        None => call.error("str2bool(): Unknown type of boolean given"),
    }
}

/// The boolean `str2bool` reads in a text, if any.
pub(super) fn text_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "t" | "y" | "true" | "yes" => Some(true),
        "" | "0" | "f" | "n" | "false" | "no" => Some(false),
        _ if text == "undef" || text == "undefined" => Some(false),
        _ => None,
    }
}

/// One path argument of the path functions, with their messages.
fn path_arg(call: &Call<'_, '_>, name: &str, max: usize) -> EvalResult<String> {
    match call.args.len() {
        0 => return call.error(format!("{name}(): No arguments given")),
        n if n > max => return call.error(format!("{name}(): Too many arguments given ({n})")),
        _ => {}
    }
    match &call.args[0] {
        Value::String(s) => Ok(s.to_string()),
        _ if max == 1 => call.error(format!("{name}(): Requires string as argument")),
        _ => call.error(format!("{name}(): Requires string as first argument")),
    }
}

/// The directory part of a path, as Ruby's `File.dirname`.
fn dirname(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let path = path_arg(call, "dirname", 1)?;
    Ok(Value::string(ruby_dirname(&path)))
}

/// The last part of a path, as Ruby's `File.basename`, without the suffix
/// given (`.*` for any extension).
fn basename(_eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let path = path_arg(call, "basename", 2)?;
    let suffix = match call.args.get(1) {
        None => None,
        Some(Value::String(s)) => Some(s.to_string()),
        Some(_) => return call.error("basename(): Requires string as second argument"),
    };
    Ok(Value::string(ruby_basename(&path, suffix.as_deref())))
}

fn ruby_dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.starts_with('/') { "/" } else { "." }.to_string();
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(i) => {
            let dir = trimmed[..i].trim_end_matches('/');
            if dir.is_empty() {
                "/".to_string()
            } else {
                dir.to_string()
            }
        }
    }
}

fn ruby_basename(path: &str, suffix: Option<&str>) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.starts_with('/') { "/" } else { "" }.to_string();
    }
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match suffix {
        Some(".*") => match base.rfind('.') {
            Some(i) if i > 0 => base[..i].to_string(),
            _ => base.to_string(),
        },
        Some(suffix) if !suffix.is_empty() && base != suffix => {
            base.strip_suffix(suffix).unwrap_or(base).to_string()
        }
        _ => base.to_string(),
    }
}

/// A fact by its dotted name (`os.release.major`), undef when missing.
fn fact(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let name = call.string(0, "fact_name")?;
    let mut value = eval.facts_for_key(name.split('.').next().unwrap_or_default());
    for segment in name.split('.') {
        value = match &value {
            Value::Hash(hash) => hash
                .get(&Value::string(segment))
                .cloned()
                .unwrap_or(Value::Undef),
            Value::Array(items) => segment
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i).cloned())
                .unwrap_or(Value::Undef),
            _ => Value::Undef,
        };
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_as_ruby_splits_them() {
        assert_eq!(ruby_dirname("/a/b/"), "/a");
        assert_eq!(ruby_dirname("a"), ".");
        assert_eq!(ruby_dirname("/"), "/");
        assert_eq!(ruby_dirname("/a"), "/");
        assert_eq!(ruby_basename("/a/b.rb", Some(".rb")), "b");
        assert_eq!(ruby_basename("/a/b.tar.gz", Some(".*")), "b.tar");
        assert_eq!(ruby_basename("/a/b/", None), "b");
        assert_eq!(ruby_basename("/", None), "/");
    }
}
