//! The classes of an environment's manifests as puppetserver's
//! `environment_classes` API describes them (for Foreman and other
//! consoles): per file, each class with its parameters, their types as
//! Puppet writes a type, and their defaults, as written and, when JSON can
//! hold them, as values. A file that does not parse gets its error.

use std::path::{Path, PathBuf};

use marionette_syntax::ast::{Expr, ExprKind, StringPart};
use serde_json::{Map, Value, json};

/// Every `.pp` file of the environment's `manifests` directory and of its
/// modules' (each module once, the first of a name), in that order, each
/// directory's files sorted. A module's file comes with the namespace its
/// path spells (`mod::a::b` for `mod/manifests/a/b.pp`, `mod` for its
/// `init.pp`), which its definitions must be named in.
pub(crate) fn manifest_files(
    environment_dir: Option<&Path>,
    modulepath: &[PathBuf],
) -> Vec<(PathBuf, Option<String>)> {
    let mut files = Vec::new();
    if let Some(dir) = environment_dir {
        let mut found = Vec::new();
        collect(&dir.join("manifests"), &mut found);
        files.extend(found.into_iter().map(|path| (path, None)));
    }
    let mut seen = std::collections::HashSet::new();
    for dir in modulepath {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut modules: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        modules.sort();
        for module in modules {
            let name = module.file_name().map(|n| n.to_owned());
            if module.is_dir() && seen.insert(name) {
                let manifests = module.join("manifests");
                let mut found = Vec::new();
                collect(&manifests, &mut found);
                for path in found {
                    let namespace = namespace(&module, &manifests, &path);
                    files.push((path, Some(namespace)));
                }
            }
        }
    }
    files
}

/// The namespace a module's manifest's path spells, lowercased as Puppet
/// compares it.
fn namespace(module: &Path, manifests: &Path, path: &Path) -> String {
    let mut names: Vec<String> = module
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .into_iter()
        .collect();
    let relative = path
        .strip_prefix(manifests)
        .unwrap_or(path)
        .with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts != ["init"] {
        names.extend(parts);
    }
    names.join("::").to_lowercase()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "pp") {
            files.push(path);
        }
    }
}

/// One file's entry: its classes, or why it could not be read: a syntax
/// error, or, in a module, what Puppet refuses where the module's
/// autoloader finds it (a definition named outside the file's namespace,
/// a statement at the top).
pub(crate) fn file_entry(path: &Path, namespace: Option<&str>) -> Value {
    let shown = path.display().to_string();
    let source = match std::fs::read_to_string(path) {
        Ok(source) => source,
        Err(_) => {
            return json!({"path": shown, "error": format!("The file {shown} does not exist")});
        }
    };
    let parsed = marionette_syntax::parse(&source);
    let misplaced = match namespace {
        Some(namespace) if !parsed.diagnostics.iter().any(|d| d.is_error()) => {
            marionette_syntax::validate::validate_module_file(&parsed.program, namespace, &shown)
        }
        _ => Vec::new(),
    };
    if let Some(problem) = parsed
        .diagnostics
        .iter()
        .chain(&misplaced)
        .find(|d| d.is_error())
    {
        let (line, column) = line_and_column(&source, problem.span.range().start);
        return json!({
            "path": shown,
            "error": format!("{} (file: {shown}, line: {line}, column: {column})", problem.message),
        });
    }
    let mut classes = Vec::new();
    for expr in &parsed.program.body {
        definitions(expr, &source, &mut classes);
    }
    json!({"path": shown, "classes": classes})
}

/// The classes `expr` defines, a nested one before its class and named,
/// as Puppet's service names it, below the class it is written in
/// (`outer::outer::inner` for `class outer::inner` inside `outer`).
fn definitions(expr: &Expr, source: &str, classes: &mut Vec<Value>) {
    nested(expr, source, "", classes);
}

fn nested(expr: &Expr, source: &str, within: &str, classes: &mut Vec<Value>) {
    let ExprKind::Class(definition) = &expr.kind else {
        return;
    };
    let name = if within.is_empty() {
        definition.name.clone()
    } else {
        format!("{within}::{}", definition.name)
    };
    for inner in &definition.body {
        nested(inner, source, &name, classes);
    }
    let params: Vec<Value> = definition
        .params
        .iter()
        .map(|param| {
            let mut entry = Map::new();
            entry.insert("name".into(), Value::from(param.name.clone()));
            if let Some(type_expr) = &param.type_expr {
                entry.insert("type".into(), Value::from(type_text(type_expr, source)));
            }
            if let Some(default) = &param.default {
                if let Some(literal) = literal(default) {
                    entry.insert("default_literal".into(), literal);
                }
                let text = &source[default.span.range()];
                entry.insert("default_source".into(), Value::from(text));
            }
            Value::Object(entry)
        })
        .collect();
    classes.push(json!({"name": name, "params": params}));
}

/// A type as Puppet prints the type its expression makes: built-in types
/// in their canonical form, a name that is not one (an alias, a resource
/// type) as the reference Puppet makes of it (`TypeReference['Name']`),
/// anything more (an alias inside brackets) as written, blanks made single.
fn type_text(expr: &Expr, source: &str) -> String {
    let written = &source[expr.span.range()];
    if let Ok(ptype) = marionette_values::typeparse::parse_type(written) {
        return ptype.to_string();
    }
    match &expr.kind {
        ExprKind::TypeRef(name) => format!("TypeReference['{name}']"),
        _ => written.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// A default's value when JSON can hold it: strings without
/// interpolation, bare words, numbers, booleans, and lists and hashes
/// (with string keys) of those. `undef` and anything else has none.
fn literal(expr: &Expr) -> Option<Value> {
    Some(match &expr.kind {
        ExprKind::String(text) | ExprKind::Name(text) | ExprKind::Word(text) => {
            Value::from(text.clone())
        }
        ExprKind::Interpolated(parts) => {
            let mut text = String::new();
            for part in parts {
                match part {
                    StringPart::Text(piece) => text.push_str(piece),
                    _ => return None,
                }
            }
            Value::from(text)
        }
        ExprKind::Integer(n) => Value::from(*n),
        ExprKind::Float(f) => Value::from(*f),
        ExprKind::Boolean(b) => Value::from(*b),
        ExprKind::Array(items) => Value::Array(items.iter().map(literal).collect::<Option<_>>()?),
        ExprKind::Hash(entries) => {
            let mut map = Map::new();
            for entry in entries {
                let Value::String(key) = literal(&entry.key)? else {
                    return None;
                };
                map.insert(key, literal(&entry.value)?);
            }
            Value::Object(map)
        }
        ExprKind::Paren(inner) => literal(inner)?,
        _ => return None,
    })
}

fn line_and_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
