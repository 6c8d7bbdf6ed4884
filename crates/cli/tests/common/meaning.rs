//! What a catalog means, for comparing ours with Puppet's as
//! `catalog-diff` does: resources by `Type[title]` with their parameters,
//! exported flag and tags (as sets), containment edges as a set, and the
//! classes as a set; file, line, version and the `Settings` class are
//! ignored.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// What a catalog means, for comparison.
#[derive(Debug, PartialEq)]
pub(crate) struct Meaning {
    resources: BTreeMap<String, (bool, String, BTreeSet<String>)>,
    edges: BTreeSet<(String, String)>,
    classes: BTreeSet<String>,
}

/// The text of a value with object keys sorted, so that hashes compare
/// regardless of order (arrays keep theirs).
pub(crate) fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, String> =
                map.iter().map(|(k, v)| (k, canonical(v))).collect();
            let entries: Vec<String> = sorted
                .iter()
                .map(|(k, v)| format!("{}:{v}", Value::String((*k).clone())))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(canonical).collect::<Vec<_>>().join(",")
            )
        }
        other => other.to_string(),
    }
}

pub(crate) fn meaning(catalog: &Value) -> Meaning {
    let mut resources = BTreeMap::new();
    for res in catalog["resources"].as_array().into_iter().flatten() {
        let kind = res["type"].as_str().unwrap_or_default();
        let title = res["title"].as_str().unwrap_or_default();
        if kind == "Class" && title == "Settings" {
            continue;
        }
        let tags = res["tags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.as_str().map(str::to_string))
            .collect();
        let parameters = res
            .get("parameters")
            .cloned()
            .unwrap_or(Value::Object(Default::default()));
        resources.insert(
            format!("{kind}[{title}]"),
            (
                res["exported"].as_bool().unwrap_or(false),
                canonical(&parameters),
                tags,
            ),
        );
    }
    let edges = catalog["edges"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["target"] != "Class[Settings]")
        .map(|e| {
            (
                e["source"].as_str().unwrap_or_default().to_string(),
                e["target"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let classes = catalog["classes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str())
        .filter(|c| *c != "settings")
        .map(str::to_string)
        .collect();
    Meaning {
        resources,
        edges,
        classes,
    }
}

/// The differences between two catalogs, one line each.
pub(crate) fn differences(expected: &Meaning, actual: &Meaning) -> Vec<String> {
    let mut out = Vec::new();
    for (key, value) in &expected.resources {
        match actual.resources.get(key) {
            None => out.push(format!("missing resource {key}")),
            Some(found) if found != value => {
                out.push(format!("{key}: expected {value:?}, got {found:?}"))
            }
            Some(_) => {}
        }
    }
    for key in actual.resources.keys() {
        if !expected.resources.contains_key(key) {
            out.push(format!("unexpected resource {key}"));
        }
    }
    for edge in expected.edges.difference(&actual.edges) {
        out.push(format!("missing edge {} -> {}", edge.0, edge.1));
    }
    for edge in actual.edges.difference(&expected.edges) {
        out.push(format!("unexpected edge {} -> {}", edge.0, edge.1));
    }
    if expected.classes != actual.classes {
        out.push(format!(
            "classes: expected {:?}, got {:?}",
            expected.classes, actual.classes
        ));
    }
    out
}
