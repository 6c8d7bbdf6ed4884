//! The resource catalog: the one thing that crosses from compilation to
//! application.
//!
//! A [`Catalog`] is what `marionette catalog compile` prints and what the
//! transaction applies. Its JSON form is Puppet's wire format
//! (`catalog_format` 2), so a catalog compiled by the real Puppet can be
//! read here and ours can be read by Puppet's tools. Parameter values are
//! plain JSON data ([`Data`]); [`to_data`] turns evaluator values into it
//! the way Puppet serializes them.

use marionette_values::format::to_s;
use marionette_values::types::capitalize_segments;
use marionette_values::{PType, Value};
use serde::{Deserialize, Serialize};

/// Plain data as it appears in a catalog: what JSON can hold, with object
/// keys in insertion order.
pub type Data = serde_json::Value;

/// A compiled catalog.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// Every tag of every class and node in the catalog. Like the other
    /// lists, Puppet reads a catalog that leaves it out.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The node the catalog is for.
    pub name: String,
    /// A number identifying this compilation (Puppet uses the time);
    /// `puppet catalog compile` leaves it out.
    #[serde(default)]
    pub version: u64,
    #[serde(default)]
    pub code_id: Option<String>,
    #[serde(default)]
    pub catalog_uuid: String,
    #[serde(default = "default_format")]
    pub catalog_format: u32,
    #[serde(default = "default_environment")]
    pub environment: String,
    #[serde(default)]
    pub resources: Vec<Resource>,
    #[serde(default)]
    pub edges: Vec<Edge>,
    #[serde(default)]
    pub classes: Vec<String>,
}

fn default_environment() -> String {
    "production".into()
}

fn default_format() -> u32 {
    2
}

/// One resource: a type, a title and its parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// The type as Puppet capitalizes it: `File`, `Class`, `Mymod::Thing`.
    #[serde(rename = "type")]
    pub type_name: String,
    pub title: String,
    /// Shared with what the run reports of the resource.
    #[serde(default)]
    pub tags: std::sync::Arc<[String]>,
    /// Shared: every resource of a manifest names the same file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<std::sync::Arc<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default)]
    pub exported: bool,
    /// `compilable_type` (a type the agent manages), `defined_type`, or
    /// `unknown` (classes and nodes); absent in older catalogs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub parameters: serde_json::Map<String, Data>,
    /// Parameters whose values were `Sensitive`: the agent must not show
    /// them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitive_parameters: Vec<String>,
}

impl Resource {
    /// The reference text, `File[/tmp/x]`.
    pub fn reference(&self) -> String {
        format!("{}[{}]", self.type_name, self.title)
    }
}

/// A containment edge: `source` contains `target`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub source: String,
    pub target: String,
}

/// Why a catalog cannot be applied, in Puppet's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    #[error("Duplicate declaration: {0} is already declared; cannot redeclare")]
    Duplicate(String),
    #[error("Could not find relationship {end} \"{missing}\" for {other}")]
    MissingEnd {
        /// `source` or `target`.
        end: &'static str,
        missing: String,
        other: String,
    },
    /// Containment that comes back to where it started.
    #[error(
        "Found 1 dependency cycle:\n({0})\nTry the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz"
    )]
    Cycle(String),
    /// A catalog that is not JSON of a catalog's shape, with the resource
    /// the problem is in when it is in one.
    #[error("{0}")]
    Malformed(String),
}

/// A reference as the catalog's resources and edges may spell it:
/// the type in any case, and a class's title in any case.
fn reference_key(reference: &str) -> (String, String) {
    let (kind, title) = reference
        .strip_suffix(']')
        .and_then(|r| r.split_once('['))
        .unwrap_or((reference, ""));
    let kind = kind.trim_start_matches("::").to_lowercase();
    let title = if kind == "class" {
        title.trim_start_matches("::").to_lowercase()
    } else {
        title.to_string()
    };
    (kind, title)
}

impl Catalog {
    /// Checks what applying relies on: each resource once, edges between
    /// resources the catalog has, containment without cycles. A catalog
    /// from elsewhere may break any of these.
    pub fn check(&self) -> Result<(), CatalogError> {
        let mut index = std::collections::HashMap::new();
        for (position, resource) in self.resources.iter().enumerate() {
            let reference = resource.reference();
            if index.insert(reference_key(&reference), position).is_some() {
                return Err(CatalogError::Duplicate(reference));
            }
        }
        let mut contains: Vec<Vec<usize>> = vec![Vec::new(); self.resources.len()];
        for edge in &self.edges {
            let find = |reference: &str| index.get(&reference_key(reference)).copied();
            match (find(&edge.source), find(&edge.target)) {
                (Some(source), Some(target)) => contains[source].push(target),
                (None, _) => {
                    return Err(CatalogError::MissingEnd {
                        end: "source",
                        missing: edge.source.clone(),
                        other: edge.target.clone(),
                    });
                }
                (_, None) => {
                    return Err(CatalogError::MissingEnd {
                        end: "target",
                        missing: edge.target.clone(),
                        other: edge.source.clone(),
                    });
                }
            }
        }
        // Depth first, each resource left once all it contains is done; a
        // resource met again while still open closes a cycle.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            Open,
            Done,
        }
        let mut marks = vec![Mark::New; self.resources.len()];
        for start in 0..self.resources.len() {
            if marks[start] != Mark::New {
                continue;
            }
            let mut path: Vec<(usize, usize)> = vec![(start, 0)];
            marks[start] = Mark::Open;
            while let Some(&mut (node, ref mut next)) = path.last_mut() {
                if let Some(&child) = contains[node].get(*next) {
                    *next += 1;
                    match marks[child] {
                        Mark::New => {
                            marks[child] = Mark::Open;
                            path.push((child, 0));
                        }
                        Mark::Open => {
                            let from = path.iter().position(|(n, _)| *n == child).unwrap_or(0);
                            let mut cycle: Vec<String> = path[from..]
                                .iter()
                                .map(|(n, _)| self.resources[*n].reference())
                                .collect();
                            cycle.push(self.resources[child].reference());
                            return Err(CatalogError::Cycle(cycle.join(" => ")));
                        }
                        Mark::Done => {}
                    }
                } else {
                    marks[node] = Mark::Done;
                    path.pop();
                }
            }
        }
        Ok(())
    }

    /// The catalog as compact JSON, as Puppet writes it.
    pub fn to_json(&self) -> String {
        // Serializing plain structs and JSON values cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The catalog as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Writes the catalog as indented JSON without building it as a string.
    pub fn write_json_pretty(&self, out: impl std::io::Write) -> Result<(), serde_json::Error> {
        serde_json::to_writer_pretty(out, self)
    }

    /// Reads a catalog in the wire format, ours or Puppet's.
    pub fn from_json(text: &str) -> Result<Catalog, CatalogError> {
        serde_json::from_str(text).map_err(|error| CatalogError::Malformed(locate(text, error)))
    }
}

/// Where a catalog that would not read went wrong: in which resource,
/// named by its position and its reference or title, when the rest of the
/// text is JSON; else where the JSON breaks.
fn locate(text: &str, error: serde_json::Error) -> String {
    // serde_json stops at 128 levels, before its recursion could overflow
    // the stack; its words for that say nothing of the catalog's data.
    if error.is_syntax() && error.to_string().starts_with("recursion limit exceeded") {
        return format!(
            "data nested more than 128 levels deep at line {} column {}",
            error.line(),
            error.column()
        );
    }
    let Ok(serde_json::Value::Object(catalog)) = serde_json::from_str::<serde_json::Value>(text)
    else {
        return error.to_string();
    };
    let Some(serde_json::Value::Array(resources)) = catalog.get("resources") else {
        return error.to_string();
    };
    for (position, resource) in resources.iter().enumerate() {
        if let Err(problem) = serde_json::from_value::<Resource>(resource.clone()) {
            let text = |key: &str| {
                resource
                    .get(key)
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            };
            let which = match (text("type"), text("title")) {
                (Some(kind), Some(title)) => format!("{kind}[{title}]"),
                (None, Some(title)) => format!("titled '{title}'"),
                (Some(kind), None) => format!("of type {kind}"),
                (None, None) => "without type or title".into(),
            };
            return format!("resource {} ({which}): {problem}", position + 1);
        }
    }
    error.to_string()
}

/// A value as Puppet puts it in a catalog: references become `Type[title]`
/// strings, `undef` inside collections becomes null, and values JSON cannot
/// hold become their string form.
pub fn to_data(value: &Value) -> Data {
    match value {
        Value::Undef => Data::Null,
        Value::Boolean(b) => Data::Bool(*b),
        Value::Integer(i) => Data::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Data::Null, Data::Number),
        Value::String(s) => Data::String(s.to_string()),
        Value::Array(items) => Data::Array(items.iter().map(to_data).collect()),
        Value::Iterator(items) => Data::Array(items.iter().map(to_data).collect()),
        Value::Hash(hash) => {
            Data::Object(hash.iter().map(|(k, v)| (to_s(k), to_data(v))).collect())
        }
        Value::Type(t) => Data::String(reference_text(t).unwrap_or_else(|| t.to_string())),
        Value::Sensitive(inner) => to_data(inner),
        // Puppet's rich-data form, which agents read from their server.
        Value::Deferred(deferred) => serde_json::json!({
            DEFERRED_KEY: "Deferred",
            "name": deferred.name,
            "arguments": deferred.arguments.iter().map(to_data).collect::<Vec<_>>(),
        }),
        other => Data::String(to_s(other)),
    }
}

/// The key that names the type of an object in Puppet's rich data.
const DEFERRED_KEY: &str = "__ptype";

/// Whether `data` is, or holds, a deferred call.
fn holds_deferred(data: &Data) -> bool {
    match data {
        Data::Object(map) => {
            map.get(DEFERRED_KEY).and_then(Data::as_str) == Some("Deferred")
                || map.values().any(holds_deferred)
        }
        Data::Array(items) => items.iter().any(holds_deferred),
        _ => false,
    }
}

/// Whether any parameter of the catalog holds a deferred call.
pub fn has_deferred(catalog: &Catalog) -> bool {
    catalog
        .resources
        .iter()
        .any(|resource| resource.parameters.values().any(holds_deferred))
}

/// Writes every deferred call of the parameters as its text, as `puppet
/// catalog compile` does (it writes catalogs without rich data): one
/// warning for each, in Puppet's words, without the `Warning: ` prefix.
/// A catalog for an agent keeps the calls, which the agent makes.
pub fn stringify_deferred(catalog: &mut Catalog) -> Vec<String> {
    let mut warnings = Vec::new();
    for resource in &mut catalog.resources {
        let place = match (&resource.file, resource.line) {
            (Some(file), Some(line)) => format!(" (file: {file}, line: {line})"),
            (Some(file), None) => format!(" (file: {file})"),
            _ => String::new(),
        };
        let reference = resource.reference();
        for (name, data) in resource.parameters.iter_mut() {
            if !holds_deferred(data) {
                continue;
            }
            let mut path = format!("{reference}['{name}']");
            stringify_in(data, &mut path, &mut |path, text| {
                warnings.push(format!(
                    "{path} contains a Deferred value. It will be converted to the String '{text}'{place}"
                ));
            });
        }
    }
    warnings
}

fn stringify_in(data: &mut Data, path: &mut String, warn: &mut dyn FnMut(&str, &str)) {
    use std::fmt::Write;
    let length = path.len();
    match data {
        Data::Object(map) if map.get(DEFERRED_KEY).and_then(Data::as_str) == Some("Deferred") => {
            let text = marionette_values::format::to_quoted_s(&from_data(data));
            warn(path, &text);
            *data = Data::String(text);
        }
        Data::Object(map) => {
            for (key, item) in map.iter_mut() {
                let _ = write!(path, "['{key}']");
                stringify_in(item, path, warn);
                path.truncate(length);
            }
        }
        Data::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                let _ = write!(path, "[{index}]");
                stringify_in(item, path, warn);
                path.truncate(length);
            }
        }
        _ => {}
    }
}

/// Makes one deferred call: the function's name and its resolved
/// arguments in, its result or the error to print out.
pub type DeferredCall<'a> = dyn FnMut(&str, Vec<Value>) -> Result<Value, String> + 'a;

/// Replaces every deferred call in the catalog's parameters by what `call`
/// returns for it, the calls in its arguments first, as the agent does
/// before applying. A parameter whose value came out Sensitive becomes a
/// sensitive parameter. The first failing call is the error.
pub fn resolve_deferred(catalog: &mut Catalog, call: &mut DeferredCall<'_>) -> Result<(), String> {
    for resource in &mut catalog.resources {
        let mut sensitive = Vec::new();
        for (name, data) in resource.parameters.iter_mut() {
            if !holds_deferred(data) {
                continue;
            }
            let mut made_sensitive = false;
            let resolved = resolve_value(from_data(data), call, &mut made_sensitive)?;
            *data = to_data(&resolved);
            if made_sensitive {
                sensitive.push(name.clone());
            }
        }
        for name in sensitive {
            if !resource.sensitive_parameters.contains(&name) {
                resource.sensitive_parameters.push(name);
            }
        }
    }
    Ok(())
}

fn resolve_value(
    value: Value,
    call: &mut DeferredCall<'_>,
    sensitive: &mut bool,
) -> Result<Value, String> {
    match value {
        Value::Deferred(deferred) => {
            let arguments = deferred
                .arguments
                .iter()
                .map(|argument| resolve_value(argument.clone(), call, sensitive))
                .collect::<Result<Vec<_>, _>>()?;
            let result = call(&deferred.name, arguments)?;
            *sensitive |= matches!(result, Value::Sensitive(_));
            Ok(result)
        }
        Value::Array(items) => Ok(Value::array(
            items
                .iter()
                .map(|item| resolve_value(item.clone(), call, sensitive))
                .collect::<Result<Vec<_>, _>>()?,
        )),
        Value::Hash(hash) => Ok(Value::hash(
            hash.iter()
                .map(|(k, v)| Ok((k.clone(), resolve_value(v.clone(), call, sensitive)?)))
                .collect::<Result<_, String>>()?,
        )),
        other => Ok(other),
    }
}

/// Plain data as a Puppet value (facts read from JSON or YAML).
pub fn from_data(data: &Data) -> Value {
    match data {
        Data::Null => Value::Undef,
        Data::Bool(b) => Value::Boolean(*b),
        Data::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        Data::String(s) => Value::string(s.as_str()),
        Data::Array(items) => Value::array(items.iter().map(from_data).collect()),
        Data::Object(map) if map.get(DEFERRED_KEY).and_then(Data::as_str) == Some("Deferred") => {
            Value::Deferred(std::sync::Arc::new(marionette_values::Deferred {
                name: map
                    .get("name")
                    .and_then(Data::as_str)
                    .unwrap_or_default()
                    .to_string(),
                arguments: match map.get("arguments") {
                    Some(Data::Array(items)) => items.iter().map(from_data).collect(),
                    _ => Vec::new(),
                },
            }))
        }
        Data::Object(map) => Value::hash(
            map.iter()
                .map(|(k, v)| (Value::string(k.as_str()), from_data(v)))
                .collect(),
        ),
    }
}

/// `File[/tmp/x]` for a resource or class reference, as the catalog
/// writes relationship targets.
pub fn reference_text(t: &PType) -> Option<String> {
    match t {
        PType::Resource {
            type_name: Some(kind),
            title: Some(title),
        } => Some(format!(
            "{}[{}]",
            capitalize_segments(kind.trim_start_matches("::")),
            title
        )),
        PType::Class(Some(name)) => Some(format!(
            "Class[{}]",
            capitalize_segments(name.trim_start_matches("::"))
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogs_without_the_optional_lists_read_and_bad_resources_are_named() {
        let catalog =
            Catalog::from_json(r#"{"name": "n", "resources": [{"type": "Notify", "title": "x"}]}"#)
                .unwrap();
        assert_eq!(catalog.environment, "production");
        assert!(catalog.resources[0].tags.is_empty() && catalog.edges.is_empty());
        let error = Catalog::from_json(
            r#"{"name": "n", "resources": [{"type": "Notify", "title": "x"}, {"title": "y"}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(error, "resource 2 (titled 'y'): missing field `type`");
        let error = Catalog::from_json(
            r#"{"name": "n", "resources": [{"type": "Notify", "title": "x", "line": "ten"}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("resource 1 (Notify[x]): invalid type"),
            "{error}"
        );
        assert!(Catalog::from_json("{").is_err());
    }

    #[test]
    fn round_trips_through_json() {
        let catalog = Catalog {
            name: "n".into(),
            environment: "production".into(),
            catalog_format: 2,
            resources: vec![Resource {
                type_name: "File".into(),
                title: "/tmp/x".into(),
                tags: ["file".to_string()].into(),
                parameters: [("mode".to_string(), Data::from("0644"))]
                    .into_iter()
                    .collect(),
                ..Resource::default()
            }],
            ..Catalog::default()
        };
        let text = catalog.to_json();
        assert!(text.contains(r#""type":"File""#), "{text}");
        assert_eq!(Catalog::from_json(&text).unwrap(), catalog);
    }
}
