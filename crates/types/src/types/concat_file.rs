//! `concat_file` (puppetlabs-concat): a file assembled from the
//! `concat_fragment` resources that target it. As in Puppet, the type
//! generates an ordinary `file` resource whose content is the fragments in
//! order, so changes, diffs, backups and atomic replacement are the file
//! type's. Puppet fills the content in when the run reaches the
//! `concat_file` (`eval_generate`); here it is built with the run's other
//! generated resources, before anything is applied, and built again when
//! the run reaches the `concat_file` once the run has changed something,
//! so a fragment's `source` that an earlier resource made is read.

use std::cmp::Ordering;

use marionette_ral::attribute::value_text;
use marionette_ral::{
    AttrDef, AttrKind, GenerateError, Generated, Generation, PropertyProvider, ProviderDef,
    RalError, Registry, Resource, TypeDef,
};
use marionette_values::Value;
use marionette_values::value::PHash;

use super::concat_fragment::belongs_to;

/// The parameters passed on to the generated file when they are set, as
/// concat passes them.
const FILE_PARAMS: &[&str] = &[
    "owner",
    "group",
    "mode",
    "replace",
    "backup",
    "selinux_ignore_defaults",
    "selrange",
    "selrole",
    "seltype",
    "seluser",
    "validate_cmd",
    "show_diff",
];

/// The file type's attribute of that name as a parameter of this type:
/// concat's `owner`, `group` and `mode` take what the file's take.
fn file_param(file: &TypeDef, name: &str, doc: &str) -> AttrDef {
    let mut attr = file
        .attribute(name)
        .cloned()
        .unwrap_or_else(|| AttrDef::param(name));
    attr.kind = AttrKind::Parameter;
    attr.doc = doc.to_string();
    attr.default = None;
    attr.insync = None;
    attr.change_message = None;
    attr.format = None;
    attr
}

/// A parameter that only takes a string, with concat's message.
fn string_param(name: &str, doc: &str, message: &'static str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .validate(move |_, value| match value {
            Value::String(_) => Ok(()),
            _ => Err(message.into()),
        })
}

/// Ruby's `"#{value}"`, which concat's messages use.
fn interpolated(value: &Value) -> String {
    match value {
        Value::String(text) => text.to_string(),
        Value::Undef => String::new(),
        other => marionette_values::format::ruby_inspect(other),
    }
}

/// One part of a sort key under `order => numeric`: digits compare as
/// numbers, anything else as text, and the two do not compare at all (Ruby
/// fails the sort then).
#[derive(Debug)]
enum Part<'a> {
    Number(&'a str),
    Text(&'a str),
}

fn part(text: &str) -> Part<'_> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        Part::Number(text)
    } else {
        Part::Text(text)
    }
}

/// Compares two parts, `None` when one is a number and the other text.
fn compare_parts(a: &Part<'_>, b: &Part<'_>) -> Option<Ordering> {
    match (a, b) {
        (Part::Number(a), Part::Number(b)) => {
            // Any number of digits, compared without converting.
            let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
            Some(a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
        }
        (Part::Text(a), Part::Text(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// Sorts `(ORDER___NAME, content)` pairs as concat does: numerically by the
/// parts around the first `___`, or as text by those around the first
/// `__`.
fn sort_fragments(fragments: &mut [(String, String)], numeric: bool) -> Result<(), String> {
    if !numeric {
        fragments.sort_by(|(a, _), (b, _)| {
            let split = |key: &str| {
                let (order, name) = key.split_once("__").unwrap_or((key, ""));
                (order.to_string(), name.to_string())
            };
            split(a).cmp(&split(b))
        });
        return Ok(());
    }
    fn parts(key: &str) -> Vec<Part<'_>> {
        match key.split_once("___") {
            Some((order, name)) => vec![part(order), part(name)],
            None => vec![part(key)],
        }
    }
    let mut incomparable = false;
    fragments.sort_by(|(a, _), (b, _)| {
        let (a, b) = (parts(a), parts(b));
        for (x, y) in a.iter().zip(&b) {
            match compare_parts(x, y) {
                Some(Ordering::Equal) => {}
                Some(order) => return order,
                None => {
                    incomparable = true;
                    return Ordering::Equal;
                }
            }
        }
        a.len().cmp(&b.len())
    });
    if incomparable {
        return Err("comparison of Array with Array failed".into());
    }
    Ok(())
}

/// A fragment's text: its content, or the first of its sources that
/// exists; with `ensure_newline`, ending with a newline.
fn fragment_content(fragment: &Resource, ensure_newline: bool) -> Result<String, String> {
    let mut text = match fragment.get("content") {
        Some(content) => value_text(content),
        None => {
            let sources: Vec<String> = fragment
                .list("source")
                .into_iter()
                .map(value_text)
                .collect();
            let found = sources.iter().find_map(|source| {
                let path = super::file::source_path(source).ok()?;
                std::fs::metadata(&path).ok().map(|_| path)
            });
            let Some(path) = found else {
                return Err(format!(
                    "Could not retrieve source(s) {}",
                    sources.join(", ")
                ));
            };
            let bytes = std::fs::read(&path).map_err(|e| format!("Could not read {path}: {e}"))?;
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    if ensure_newline && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// concat's merge of structured fragments: hashes merged deeply, arrays
/// joined without duplicates, and a key with two different plain values
/// refused unless `force` keeps the first.
fn nested_merge(first: Value, second: Value, force: bool) -> Result<Value, String> {
    let empty = |value: &Value| match value {
        Value::Undef => true,
        Value::Hash(hash) => hash.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::String(text) => text.is_empty(),
        _ => false,
    };
    if empty(&second) {
        return Ok(first);
    }
    if empty(&first) {
        return Ok(second);
    }
    match (first, second) {
        (Value::Array(a), Value::Array(b)) => {
            let mut joined: Vec<Value> = Vec::with_capacity(a.len() + b.len());
            for item in a.iter().chain(b.iter()) {
                if !joined.contains(item) {
                    joined.push(item.clone());
                }
            }
            Ok(Value::Array(joined.into()))
        }
        (Value::Hash(a), Value::Hash(b)) => {
            let mut merged: PHash = (*a).clone();
            for (key, v2) in b.iter() {
                let Some(v1) = merged.get(key).cloned() else {
                    merged.insert(key.clone(), v2.clone());
                    continue;
                };
                let value = match (&v1, v2) {
                    (Value::Hash(_), Value::Hash(_)) | (Value::Array(_), Value::Array(_)) => {
                        nested_merge(v1, v2.clone(), force)?
                    }
                    _ if v1 == *v2 || force => v1,
                    _ => {
                        return Err(format!(
                            "Duplicate key '{}' found with values '{}' and {}'. Use 'force' attribute to merge keys.",
                            interpolated(key),
                            interpolated(&v1),
                            interpolated(v2)
                        ));
                    }
                };
                merged.insert(key.clone(), value);
            }
            Ok(Value::Hash(merged.into()))
        }
        (first, _) => Err(format!(
            "undefined method `merge' for {}",
            marionette_values::format::ruby_inspect(&first)
        )),
    }
}

/// A fragment read as JSON, as Ruby's `JSON.parse` does.
fn parse_json(text: &str) -> Result<Value, String> {
    let data: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("unexpected token in '{}': {e}", text.trim_end()))?;
    Ok(marionette_catalog::from_data(&data))
}

/// The file's content: the fragments in order, joined or merged as
/// `format` says.
fn content(resource: &Resource, run: &dyn Generation) -> Result<String, String> {
    let ensure_newline = resource.get("ensure_newline") == Some(&Value::Boolean(true));
    let mut fragments = Vec::new();
    for fragment in run.resources_of("concat_fragment") {
        if belongs_to(fragment, resource) {
            let order = fragment.get("order").map(value_text).unwrap_or_default();
            let key = format!("{order}___{}", fragment.name());
            fragments.push((key, fragment_content(fragment, ensure_newline)?));
        }
    }
    sort_fragments(&mut fragments, resource.str("order") != Some("alpha"))?;
    let texts = fragments.into_iter().map(|(_, text)| text);
    let force = resource.get("force") == Some(&Value::Boolean(true));
    let format = resource.str("format").unwrap_or("plain");
    let merge = |values: Vec<Value>| {
        values
            .into_iter()
            .try_fold(Value::Hash(PHash::new().into()), |memo, value| {
                nested_merge(memo, value, force)
            })
    };
    let json = |value: &Value, pretty: bool| {
        let style = if pretty {
            marionette_values::json::JsonStyle::pretty()
        } else {
            marionette_values::json::JsonStyle::compact()
        };
        marionette_values::json::generate(value, &style).map_err(|e| e.to_string())
    };
    match format {
        "yaml" => {
            let values = texts
                .map(|text| marionette_hiera::yaml::parse(&text).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(marionette_hiera::yaml::emit::dump(&merge(values)?))
        }
        "json" | "json-pretty" | "json-array" | "json-array-pretty" => {
            let values = texts
                .map(|text| parse_json(&text))
                .collect::<Result<Vec<_>, _>>()?;
            let pretty = format.ends_with("-pretty");
            if format.starts_with("json-array") {
                json(&Value::Array(values.into()), pretty)
            } else {
                json(&merge(values)?, pretty)
            }
        }
        _ => Ok(texts.collect()),
    }
}

/// The generated `file`: the parameters set here, and the content. When
/// the content cannot be built, the file is still managed without it, as
/// Puppet's is, and the error is reported against this resource.
fn generate(resource: &Resource, run: &dyn Generation) -> Result<Vec<Generated>, GenerateError> {
    let absent = resource.str("ensure") == Some("absent");
    let mut params = vec![(
        "ensure".to_string(),
        Value::String(if absent { "absent" } else { "file" }.into()),
    )];
    for name in FILE_PARAMS {
        if let Some(value) = resource.get(name) {
            params.push((name.to_string(), value.clone()));
        }
    }
    let mut file = Generated {
        type_name: "file".into(),
        title: resource.name(),
        params,
        by: marionette_ral::GeneratedBy::Both,
    };
    if absent {
        return Ok(vec![file]);
    }
    match content(resource, run) {
        Ok(text) => {
            file.params
                .push(("content".to_string(), Value::String(text.into())));
            Ok(vec![file])
        }
        // `eval_generate` failed: the file stands as `generate` made it.
        Err(message) => {
            file.by = marionette_ral::GeneratedBy::Generate;
            Err(GenerateError::Incomplete(vec![file], message))
        }
    }
}

pub fn definition() -> TypeDef {
    let file = super::file::definition();
    TypeDef::new("concat_file")
        .doc(
            "A file assembled from the `concat_fragment` resources whose `target` is its
            path or title, or that carry the same `tag`: their contents in order
            (`order`), joined as they are or merged as YAML or JSON (`format`). The
            file itself is an ordinary `file` resource, generated with the owner,
            group, mode, backup and validation given here.",
        )
        .attr(
            AttrDef::param("ensure")
                .doc("Whether the file should exist: `present` (the default) or `absent`.")
                .values(&["present", "absent"])
                .default_value(Value::String("present".into())),
        )
        .attr(
            AttrDef::param("path")
                .doc("The absolute path of the file; defaults to the title.")
                .namevar()
                .validate(|_, value| {
                    let text = value_text(value);
                    if text.starts_with('/') {
                        Ok(())
                    } else {
                        Err(format!("File paths must be fully qualified, not '{text}'"))
                    }
                }),
        )
        .attr(file_param(&file, "owner", "The owner of the file, by name or uid."))
        .attr(file_param(&file, "group", "The group of the file, by name or gid."))
        .attr(file_param(&file, "mode", "The permissions of the file, as for `file`."))
        .attr(
            AttrDef::param("order")
                .doc(
                    "How fragments are sorted: `numeric` (the default) compares orders and
                    names made of digits as numbers, `alpha` as text.",
                )
                .values(&["alpha", "numeric"])
                .default_value(Value::String("numeric".into())),
        )
        .attr(
            AttrDef::param("backup")
                .doc("Passed to the file: where its old content is kept, as for `file`.")
                .validate(|_, value| match value {
                    Value::Boolean(_) | Value::String(_) => Ok(()),
                    _ => Err("Backup must be a Boolean or String".into()),
                }),
        )
        .attr(
            AttrDef::param("replace")
                .doc("Whether an existing file's content is replaced.")
                .boolean()
                .default_value(Value::Boolean(true)),
        )
        .attr(string_param(
            "validate_cmd",
            "A command checking the new content before it replaces the file, as for `file`.",
            "Validate_cmd must be a String",
        ))
        .attr(
            AttrDef::param("ensure_newline")
                .doc("Whether each fragment not ending in a newline gets one.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("format")
                .doc(
                    "How fragments are combined: `plain` (joined), `yaml` or `json`,
                    `json-pretty` (merged into one hash), `json-array` or
                    `json-array-pretty` (listed).",
                )
                .values(&[
                    "plain",
                    "yaml",
                    "json",
                    "json-array",
                    "json-pretty",
                    "json-array-pretty",
                ])
                .default_value(Value::String("plain".into())),
        )
        .attr(
            AttrDef::param("force")
                .doc("When merging, whether a key with two values keeps the first rather than failing.")
                .boolean()
                .default_value(Value::Boolean(false)),
        )
        .attr(
            AttrDef::param("selinux_ignore_defaults")
                .doc("Passed to the file.")
                .boolean(),
        )
        .attr(string_param("selrange", "Passed to the file.", "Selrange must be a String"))
        .attr(string_param("selrole", "Passed to the file.", "Selrole must be a String"))
        .attr(string_param("seltype", "Passed to the file.", "Seltype must be a String"))
        .attr(string_param("seluser", "Passed to the file.", "Seluser must be a String"))
        .attr(
            AttrDef::param("show_diff")
                .doc("Passed to the file: whether content changes are shown as a diff.")
                .boolean(),
        )
        .generate(generate)
        .fills_late()
}

/// The generated file does the work; the `concat_file` itself changes
/// nothing.
struct Assembler;

impl PropertyProvider for Assembler {}

pub fn implementation() -> ProviderDef {
    ProviderDef::properties("concat_file", "concat_file", Assembler).implicit()
}

pub fn register(registry: &mut Registry) -> Result<(), RalError> {
    registry.add_type(definition())?;
    registry.add_provider(implementation())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[&str], numeric: bool) -> Result<Vec<String>, String> {
        let mut pairs: Vec<(String, String)> = keys
            .iter()
            .map(|k| (k.to_string(), String::new()))
            .collect();
        sort_fragments(&mut pairs, numeric)?;
        Ok(pairs.into_iter().map(|(k, _)| k).collect())
    }

    #[test]
    fn numeric_order_compares_numbers() {
        assert_eq!(
            sorted(&["10___b", "9___z", "010___a", "100___a"], true).unwrap(),
            ["9___z", "010___a", "10___b", "100___a"]
        );
        assert_eq!(
            sorted(&["10___b", "2___a"], false).unwrap(),
            ["10___b", "2___a"]
        );
        assert!(sorted(&["10___b", "x___a"], true).is_err());
    }

    #[test]
    fn merging_keeps_the_first_value_only_with_force() {
        let hash = |k: &str, v: i64| {
            let mut h = PHash::new();
            h.insert(Value::string(k), Value::Integer(v));
            Value::Hash(h.into())
        };
        let error = nested_merge(hash("a", 1), hash("a", 2), false).unwrap_err();
        assert_eq!(
            error,
            "Duplicate key 'a' found with values '1' and 2'. Use 'force' attribute to merge keys."
        );
        assert_eq!(
            nested_merge(hash("a", 1), hash("a", 2), true).unwrap(),
            hash("a", 1)
        );
    }
}
