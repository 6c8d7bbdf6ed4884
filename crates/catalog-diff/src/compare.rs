//! Two catalogs of one node compared, resource by resource and parameter
//! by parameter, as octocatalog-diff's `Differ` compares them: resources
//! keyed by type and title (a file by its `path`), exported resources
//! left out, values compared as data, hashes descended into and arrays
//! compared whole.

use std::collections::{HashMap, HashSet};

use marionette_catalog::{Catalog, Data, Resource};
use serde_json::{Map, Value};

use crate::{Options, REDACTED};

/// The kind of a change, with octocatalog-diff's symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiffType {
    /// `+`: a resource only the new catalog has.
    Added,
    /// `-`: a resource only the old catalog has.
    Removed,
    /// `~`: a value changed in place.
    Changed,
    /// `!`: a value added, removed, or an array changed (compared whole).
    Replaced,
}

impl DiffType {
    /// octocatalog-diff's symbol: `+`, `-`, `~` or `!`.
    pub fn symbol(self) -> &'static str {
        match self {
            DiffType::Added => "+",
            DiffType::Removed => "-",
            DiffType::Changed => "~",
            DiffType::Replaced => "!",
        }
    }
}

/// One difference between the two catalogs of a node.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub diff_type: DiffType,
    /// The resource's type, capitalized as in the catalog (`File`).
    pub type_name: String,
    /// Its title (a file's path).
    pub title: String,
    /// Where in the resource the change is: empty for a resource added or
    /// removed, else `["parameters", NAME, KEY...]` (or `["tags"]`).
    pub structure: Vec<String>,
    /// The old value: absent (`None`) where there was none. A removed
    /// resource's is `{"parameters": ...}`.
    pub old_value: Option<Data>,
    /// The new value, as `old_value`.
    pub new_value: Option<Data>,
    /// The value was Sensitive on either side: both values shown are the
    /// redaction.
    pub sensitive: bool,
    /// Where the resource was declared in the old code and the new
    /// (file and line).
    pub old_location: Option<(String, u32)>,
    pub new_location: Option<(String, u32)>,
}

impl Change {
    /// `File[/etc/motd]`.
    pub fn reference(&self) -> String {
        format!("{}[{}]", self.type_name, self.title)
    }
}

/// Metaparameters whose values are lists whose order says nothing:
/// compared sorted, as octocatalog-diff does.
const UNORDERED: &[&str] = &["before", "require", "notify", "subscribe", "tag"];

/// A resource as compared: its key and its comparable parts.
struct Prepared<'a> {
    resource: &'a Resource,
    title: String,
    /// `{"parameters": {...}, "tags": [...]}`, parameters sorted where
    /// order says nothing.
    body: Map<String, Value>,
}

fn prepare<'a>(resource: &'a Resource, options: &Options) -> Prepared<'a> {
    let mut parameters = resource.parameters.clone();
    let mut title = resource.title.clone();
    if resource.type_name == "File"
        && let Some(Value::String(path)) = parameters.remove("path")
    {
        title = path;
    }
    for name in UNORDERED {
        if let Some(Value::Array(items)) = parameters.get_mut(*name) {
            items.sort_by_key(|item| item.to_string());
        }
    }
    let mut body = Map::new();
    if !parameters.is_empty() {
        body.insert("parameters".into(), Value::Object(parameters));
    }
    if options.include_tags && !resource.tags.is_empty() {
        let mut tags: Vec<String> = resource.tags.to_vec();
        tags.sort();
        body.insert(
            "tags".into(),
            Value::Array(tags.into_iter().map(Value::String).collect()),
        );
    }
    Prepared {
        resource,
        title,
        body,
    }
}

/// The resources of a catalog that are compared, by type and title, in
/// catalog order.
fn resources<'a>(catalog: &'a Catalog, options: &Options) -> Vec<Prepared<'a>> {
    catalog
        .resources
        .iter()
        .filter(|r| !r.exported)
        .filter(|r| options.include_classes || r.type_name != "Class")
        .map(|r| prepare(r, options))
        .collect()
}

fn location(resource: &Resource) -> Option<(String, u32)> {
    Some((resource.file.as_deref()?.to_string(), resource.line?))
}

/// A resource's parameters with the sensitive ones redacted, as a whole
/// resource is shown when added or removed.
fn shown_whole(prepared: &Prepared<'_>) -> Value {
    let mut body = prepared.body.clone();
    if let Some(Value::Object(parameters)) = body.get_mut("parameters") {
        for name in &prepared.resource.sensitive_parameters {
            if let Some(value) = parameters.get_mut(name) {
                *value = Value::String(REDACTED.into());
            }
        }
    }
    Value::Object(body)
}

fn tagged(resource: &Resource, tags: &[String]) -> bool {
    let type_tag = resource
        .type_name
        .to_lowercase()
        .replace(|c: char| !c.is_alphanumeric() && c != '_', "_");
    tags.iter().any(|tag| {
        let with_type = format!("{tag}__{type_tag}");
        resource.tags.iter().any(|t| t == tag || *t == with_type)
    })
}

/// Whether two strings differ only in whitespace.
fn same_but_whitespace(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::String(a), Value::String(b)) => {
            let strip = |s: &str| s.split_whitespace().collect::<String>();
            strip(a) == strip(b)
        }
        _ => false,
    }
}

/// The changes between a node's old catalog and its new one, in the
/// order of type, title and place in the resource.
pub fn diff(from: &Catalog, to: &Catalog, options: &Options) -> Vec<Change> {
    let old = resources(from, options);
    let new = resources(to, options);
    let old_by_key: HashMap<(&str, &str), &Prepared<'_>> = old
        .iter()
        .map(|p| ((p.resource.type_name.as_str(), p.title.as_str()), p))
        .collect();
    let new_keys: HashSet<(&str, &str)> = new
        .iter()
        .map(|p| (p.resource.type_name.as_str(), p.title.as_str()))
        .collect();
    // octocatalog-diff's --ignore-tags: tagged in the new catalog, or in
    // the old one for what the new one lacks.
    let mut ignored: HashSet<(&str, &str)> = HashSet::new();
    if !options.ignore_tags.is_empty() {
        for p in &new {
            if tagged(p.resource, &options.ignore_tags) {
                ignored.insert((p.resource.type_name.as_str(), p.title.as_str()));
            }
        }
        for p in &old {
            let key = (p.resource.type_name.as_str(), p.title.as_str());
            if !new_keys.contains(&key) && tagged(p.resource, &options.ignore_tags) {
                ignored.insert(key);
            }
        }
    }
    let mut changes = Vec::new();
    for p in &new {
        let key = (p.resource.type_name.as_str(), p.title.as_str());
        if ignored.contains(&key) {
            continue;
        }
        match old_by_key.get(&key) {
            None => changes.push(Change {
                diff_type: DiffType::Added,
                type_name: p.resource.type_name.clone(),
                title: p.title.clone(),
                structure: Vec::new(),
                old_value: None,
                new_value: Some(shown_whole(p)),
                sensitive: false,
                old_location: None,
                new_location: location(p.resource),
            }),
            Some(o) => compare_resource(o, p, options, &mut changes),
        }
    }
    for p in &old {
        let key = (p.resource.type_name.as_str(), p.title.as_str());
        if new_keys.contains(&key) || ignored.contains(&key) {
            continue;
        }
        changes.push(Change {
            diff_type: DiffType::Removed,
            type_name: p.resource.type_name.clone(),
            title: p.title.clone(),
            structure: Vec::new(),
            old_value: Some(shown_whole(p)),
            new_value: None,
            sensitive: false,
            old_location: location(p.resource),
            new_location: None,
        });
    }
    changes.retain(|change| !options.ignores.iter().any(|rule| rule.matches(change)));
    changes.sort_by(|a, b| {
        (&a.type_name, &a.title, &a.structure).cmp(&(&b.type_name, &b.title, &b.structure))
    });
    changes
}

/// The changes inside one resource both catalogs have.
fn compare_resource(
    old: &Prepared<'_>,
    new: &Prepared<'_>,
    options: &Options,
    changes: &mut Vec<Change>,
) {
    let sensitive: HashSet<&str> = old
        .resource
        .sensitive_parameters
        .iter()
        .chain(&new.resource.sensitive_parameters)
        .map(String::as_str)
        .collect();
    let mut found = Vec::new();
    walk(
        &mut Vec::new(),
        Some(&Value::Object(old.body.clone())),
        Some(&Value::Object(new.body.clone())),
        &sensitive,
        options,
        &mut found,
    );
    for (structure, diff_type, old_value, new_value, redacted) in found {
        changes.push(Change {
            diff_type,
            type_name: new.resource.type_name.clone(),
            title: new.title.clone(),
            structure,
            old_value,
            new_value,
            sensitive: redacted,
            old_location: location(old.resource),
            new_location: location(new.resource),
        });
    }
}

type Found = (Vec<String>, DiffType, Option<Value>, Option<Value>, bool);

/// Descends two values in step, as hashdiff does: a leaf that differs is
/// `~`, a key on one side only or an array that differs is `!`.
fn walk(
    path: &mut Vec<String>,
    old: Option<&Value>,
    new: Option<&Value>,
    sensitive: &HashSet<&str>,
    options: &Options,
    found: &mut Vec<Found>,
) {
    if old == new {
        return;
    }
    // A sensitive parameter: said to have changed, never shown.
    if path.len() == 2 && path[0] == "parameters" && sensitive.contains(path[1].as_str()) {
        let redacted = |v: Option<&Value>| v.map(|_| Value::String(REDACTED.into()));
        let kind = if old.is_some() && new.is_some() {
            DiffType::Changed
        } else {
            DiffType::Replaced
        };
        found.push((path.clone(), kind, redacted(old), redacted(new), true));
        return;
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let keys: Vec<&String> = a
                .keys()
                .chain(b.keys().filter(|k| !a.contains_key(*k)))
                .collect();
            for key in keys {
                path.push(key.clone());
                walk(path, a.get(key), b.get(key), sensitive, options, found);
                path.pop();
            }
        }
        (Some(a), Some(b)) => {
            if options.ignore_whitespace && same_but_whitespace(a, b) {
                return;
            }
            let kind = if a.is_array() && b.is_array() {
                DiffType::Replaced
            } else {
                DiffType::Changed
            };
            found.push((path.clone(), kind, Some(a.clone()), Some(b.clone()), false));
        }
        _ => found.push((
            path.clone(),
            DiffType::Replaced,
            old.cloned(),
            new.cloned(),
            false,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(type_name: &str, title: &str, parameters: Value) -> Resource {
        Resource {
            type_name: type_name.into(),
            title: title.into(),
            parameters: parameters.as_object().cloned().unwrap_or_default(),
            ..Resource::default()
        }
    }

    fn catalog(resources: Vec<Resource>) -> Catalog {
        Catalog {
            name: "mrtest-node".into(),
            resources,
            ..Catalog::default()
        }
    }

    #[test]
    fn parameters_are_compared_leaf_by_leaf_and_arrays_whole() {
        let from = catalog(vec![resource(
            "File",
            "motd",
            serde_json::json!({"path": "/etc/motd", "mode": "0644", "h": {"a": 1, "b": 2}, "l": [1, 2]}),
        )]);
        let to = catalog(vec![resource(
            "File",
            "motd",
            serde_json::json!({"path": "/etc/motd", "mode": "0640", "h": {"a": 1, "c": 3}, "l": [2, 1]}),
        )]);
        let changes = diff(&from, &to, &Options::default());
        let seen: Vec<(String, &str)> = changes
            .iter()
            .map(|c| (c.structure.join("."), c.diff_type.symbol()))
            .collect();
        assert_eq!(
            seen,
            [
                ("parameters.h.b".to_string(), "!"),
                ("parameters.h.c".to_string(), "!"),
                ("parameters.l".to_string(), "!"),
                ("parameters.mode".to_string(), "~"),
            ]
        );
        assert!(changes.iter().all(|c| c.title == "/etc/motd"));
    }

    #[test]
    fn sensitive_values_are_compared_but_never_shown() {
        let mut old = resource(
            "File",
            "/etc/secret",
            serde_json::json!({"content": "hunter2"}),
        );
        old.sensitive_parameters = vec!["content".into()];
        let mut new = old.clone();
        new.parameters
            .insert("content".into(), Value::String("hunter3".into()));
        let changes = diff(
            &catalog(vec![old]),
            &catalog(vec![new]),
            &Options::default(),
        );
        assert_eq!(changes.len(), 1);
        let text = format!("{:?}", changes[0]);
        assert!(!text.contains("hunter"), "{text}");
        assert!(changes[0].sensitive);
    }
}
