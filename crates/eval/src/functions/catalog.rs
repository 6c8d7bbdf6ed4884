//! Functions that act on the catalog or on module files: `include`,
//! `contain`, `require`, `realize`, `tag`, `tagged`, `defined`,
//! `create_resources`, `epp`, `file`, `binary_file`, `find_file`,
//! `find_template` and `module_directory`.

use std::collections::HashMap;

use marionette_syntax::ast::ResourceForm;
use marionette_values::format::{ruby_class, to_s};
use marionette_values::{PHash, PType, Value};

use super::{Builtin, Call};
use crate::error::{EvalError, EvalResult, Located};
use crate::evaluator::Evaluator;

pub(super) fn register(map: &mut HashMap<&'static str, Builtin>) {
    map.insert("include", include);
    map.insert("contain", contain);
    map.insert("require", require);
    map.insert("realize", realize);
    map.insert("tag", tag);
    map.insert("tagged", tagged);
    map.insert("defined", defined);
    map.insert("create_resources", create_resources);
    map.insert("epp", epp);
    map.insert("file", file);
    map.insert("find_file", find_file);
    map.insert("binary_file", binary_file);
    map.insert("find_template", find_template);
    map.insert("module_directory", module_directory);
}

/// Class names from strings, `Class['x']` references and arrays of them.
fn class_names(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(name) => out.push(name.to_string()),
        Value::Array(items) => items.iter().for_each(|v| class_names(v, out)),
        Value::Type(t) => match &**t {
            PType::Class(Some(name)) => out.push(name.clone()),
            PType::Resource {
                type_name: Some(kind),
                title: Some(title),
            } if kind == "class" => out.push(title.clone()),
            _ => {}
        },
        _ => {}
    }
}

fn names(call: &Call<'_, '_>) -> EvalResult<Vec<String>> {
    call.arity(1, None)?;
    let mut names = Vec::new();
    call.args.iter().for_each(|v| class_names(v, &mut names));
    Ok(names)
}

fn include(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    for name in names(call)? {
        eval.include_class(&name, call.span)?;
    }
    Ok(Value::Undef)
}

fn contain(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    for name in names(call)? {
        eval.contain_class(&name, call.span)?;
    }
    Ok(Value::Undef)
}

fn require(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    for name in names(call)? {
        eval.require_class(&name, call.span)?;
    }
    Ok(Value::Undef)
}

/// `create_resources(type, {title => params}, defaults)`: declares a
/// resource for each title (each element of an array title), its
/// parameters over the defaults. A type written `@type` declares virtual
/// resources, `@@type` exported ones; `class` declares classes. The checks
/// and their wording are those of Puppet's function, a 3.x one.
fn create_resources(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    let count = call.args.len();
    if count < 2 {
        return call.error(format_args!(
            "create_resources(): Wrong number of arguments given ({count} for minimum 2)"
        ));
    }
    if count > 3 {
        return call.error(format_args!(
            "create_resources(): wrong number of arguments ({count}; must be 2 or 3)"
        ));
    }
    let Value::Hash(instances) = &call.args[1] else {
        return call.error("create_resources(): second argument must be a hash");
    };
    let defaults = match call.args.get(2) {
        None => PHash::default(),
        Some(Value::Hash(defaults)) => (**defaults).clone(),
        Some(_) => {
            return call.error("create_resources(): third argument, if provided, must be a hash");
        }
    };
    let written = to_s(&call.args[0]);
    let (form, type_name) = if let Some(name) = written.strip_prefix("@@") {
        (ResourceForm::Exported, name)
    } else if let Some(name) = written.strip_prefix('@') {
        (ResourceForm::Virtual, name)
    } else {
        (ResourceForm::Regular, written.as_str())
    };
    let type_name = type_name.to_lowercase();
    if type_name == "class" && form != ResourceForm::Regular {
        // Puppet raises this as an issue of the manifest, placed by line
        // only and without the function call's prefix.
        let (file, line) = eval.place(call.span);
        let mut error = EvalError::new("Classes are not virtualizable", call.span);
        error.located = Some(Located {
            file: file.to_string(),
            line,
            column: None,
        });
        return Err(error.into());
    }
    let instances = instances.clone();
    for (title, params) in instances.iter() {
        // Ruby merges the parameters into the defaults, and says so when
        // they are no hash.
        let mut merged = defaults.clone();
        match params {
            Value::Hash(params) => {
                for (name, value) in params.iter() {
                    merged.insert(name.clone(), value.clone());
                }
            }
            other => {
                let what = match other {
                    Value::Undef => "nil",
                    Value::Boolean(true) => "true",
                    Value::Boolean(false) => "false",
                    other => ruby_class(other),
                };
                return call.error(format_args!("no implicit conversion of {what} into Hash"));
            }
        }
        let titles = match title {
            Value::Array(titles) => titles.to_vec(),
            other => vec![other.clone()],
        };
        for title in titles {
            eval.declare_from_function_as(&type_name, &title, &merged, form, call.span)?;
        }
    }
    Ok(Value::Undef)
}

fn realize(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    eval.realize(&call.args)?;
    Ok(Value::Undef)
}

fn flat(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .flat_map(crate::compiler::resources::flat_strings)
        .collect()
}

/// `tag('a', 'b')`: tags the class or defined type whose code runs, and so
/// everything it contains.
fn tag(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    let id = eval.scope_resource();
    for name in flat(&call.args) {
        if !crate::compiler::valid_tag(&name) {
            return call.error(format_args!("Invalid tag '{name}'"));
        }
        eval.compiler.resources[id].tag(&name);
    }
    Ok(Value::Undef)
}

/// `tagged('a')`: whether each tag is a tag of the running class or
/// defined type, or of the catalog (any class or node declared so far).
fn tagged(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    let id = eval.scope_resource();
    let resources = &eval.compiler.resources;
    let has = |tag: &str| {
        resources[id].tags.contains(tag)
            || resources.iter().any(|res| {
                matches!(
                    res.kind,
                    crate::compiler::Kind::Class | crate::compiler::Kind::Node
                ) && res.tags.contains(tag)
            })
    };
    Ok(Value::Boolean(
        flat(&call.args)
            .iter()
            .all(|name| has(&name.to_lowercase())),
    ))
}

/// `defined`: whether classes, defined types, core types, type aliases or
/// variables (`'$x'`) exist, or whether a resource or class is in the
/// catalog (`File['/x']`, `Class['x']`).
fn defined(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    for arg in &call.args {
        let found = match arg {
            Value::String(name) if name.starts_with('$') => {
                eval.lookup_quietly(&name[1..]).is_some()
            }
            Value::String(name) => {
                let lower = name.trim_start_matches("::").to_lowercase();
                eval.is_defined_name(&lower)
                    || eval.find_class(&lower)?.is_some()
                    || eval.find_define(&lower)?.is_some()
            }
            Value::Type(t) => match &**t {
                PType::Class(Some(name)) => eval.is_class_declared(name),
                PType::Resource {
                    type_name: Some(kind),
                    title: Some(title),
                } => eval.compiler.find(kind, title).is_some(),
                PType::Resource {
                    type_name: Some(kind),
                    title: None,
                } => eval.is_defined_name(kind) || eval.find_define(kind)?.is_some(),
                PType::Resource {
                    type_name: None, ..
                }
                | PType::Class(None) => true,
                _ => false,
            },
            _ => {
                return call.mismatch(
                    "vals",
                    "Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]]",
                    0,
                );
            }
        };
        // Any one defined argument is enough.
        if found {
            return Ok(Value::Boolean(true));
        }
    }
    Ok(Value::Boolean(false))
}

/// `epp('mod/t.epp', {params})`: renders a template from a module's
/// `templates` directory.
fn epp<'p>(eval: &mut Evaluator<'p>, call: &mut Call<'_, 'p>) -> EvalResult<Value> {
    call.arity(1, Some(2))?;
    let reference = call.string(0, "path")?;
    let arguments = match call.args.get(1) {
        Some(Value::Hash(hash)) => Some((**hash).clone()),
        None | Some(Value::Undef) => None,
        Some(_) => return call.mismatch("parameters", "Hash", 1),
    };
    let loaded = match eval.load_template(&reference) {
        Ok(loaded) => loaded,
        Err(message) => return call.error(message),
    };
    eval.in_file(&loaded.file, |this| {
        this.render_epp(&loaded.program, arguments, call.span)
    })
}

/// Candidate paths from the arguments, arrays flattened.
fn candidates(call: &Call<'_, '_>) -> Vec<String> {
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            other => out.push(to_s(other)),
        }
    }
    let mut out = Vec::new();
    call.args.iter().for_each(|v| walk(v, &mut out));
    out
}

/// `file('mod/x', ...)`: the content of the first file found.
fn file(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    let all = candidates(call);
    for candidate in &all {
        if let Some(path) = eval.find_module_file(candidate) {
            return match std::fs::read(&path) {
                Ok(bytes) => Ok(Value::string(String::from_utf8_lossy(&bytes).as_ref())),
                Err(error) => {
                    call.error(format_args!("Could not read {}: {error}", path.display()))
                }
            };
        }
    }
    call.error(format_args!(
        "Could not find any files from {}",
        all.join(", ")
    ))
}

/// `find_file('mod/x', ...)`: the path of the first file found, or undef.
fn find_file(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, None)?;
    Ok(candidates(call)
        .iter()
        .find_map(|candidate| eval.find_module_file(candidate))
        .map_or(Value::Undef, |path| {
            Value::string(path.display().to_string().as_str())
        }))
}

/// `binary_file('mod/x')`: the bytes of a module file (or of an absolute
/// path) as a Binary.
fn binary_file(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    call.arity(1, Some(1))?;
    let reference = call.string(0, "path")?;
    let missing = || {
        call.error(format_args!(
            "binary_file(): The given file '{reference}' does not exist"
        ))
    };
    let Some(path) = eval.find_module_file(&reference) else {
        return missing();
    };
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Value::Binary(std::sync::Arc::new(bytes))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => missing(),
        Err(error) => call.error(format_args!("Could not read {}: {error}", path.display())),
    }
}

/// `find_template('mod/x.erb', ...)`: the path of the first template found
/// in a module's `templates` (or absolute path that exists), else undef.
fn find_template(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    Ok(candidates(call)
        .iter()
        .find_map(|candidate| eval.find_module_file_in(candidate, "templates"))
        .map_or(Value::Undef, |path| {
            Value::string(path.display().to_string().as_str())
        }))
}

/// `module_directory('a', 'b')` (or an array of names): the directory of the
/// first module found in the module path, else undef.
fn module_directory(eval: &mut Evaluator<'_>, call: &mut Call<'_, '_>) -> EvalResult<Value> {
    Ok(candidates(call)
        .iter()
        .find_map(|name| eval.module_directory(name))
        .map_or(Value::Undef, |path| {
            Value::string(path.display().to_string().as_str())
        }))
}
