//! Puppet's own documents (a facts set, a catalog, a run report) as the
//! payloads of PuppetDB's commands, made as Puppet's PuppetDB termini
//! make them, so a node stored by `marionette server` reads the same as
//! one stored by puppetserver through PuppetDB.

use marionette_values::time::Timestamp;
use serde_json::{Map, Value, json};

/// The command names and versions the payloads below are for.
pub const REPLACE_FACTS: (&str, u32) = ("replace facts", 5);
pub const REPLACE_CATALOG: (&str, u32) = ("replace catalog", 9);
pub const STORE_REPORT: (&str, u32) = ("store report", 8);
pub const DEACTIVATE_NODE: (&str, u32) = ("deactivate node", 3);

fn time_text(time: Timestamp) -> String {
    time.format("%Y-%m-%dT%H:%M:%S.%LZ")
}

/// `replace facts` (version 5): the node's facts with its `trusted`
/// data beside them, from `producer` (the server's certname), produced
/// now, as Puppet's facts terminus sends them: Puppet's package inventory
/// fact (`_puppet_inventory_1`) is left out of the values, its packages
/// (`[name, version, provider]` each) sent as the `package_inventory`.
pub fn replace_facts(
    certname: &str,
    environment: &str,
    values: &Map<String, Value>,
    trusted: Option<&Value>,
    producer: &str,
) -> Value {
    let mut values = values.clone();
    let packages = values
        .shift_remove("_puppet_inventory_1")
        .and_then(|inventory| inventory.get("packages").cloned())
        .and_then(|packages| match packages {
            Value::Array(list) => Some(
                list.into_iter()
                    .filter(|p| {
                        p.as_array()
                            .is_some_and(|p| p.len() == 3 && p.iter().all(Value::is_string))
                    })
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        });
    if let Some(trusted) = trusted {
        values.insert("trusted".into(), trusted.clone());
    }
    let mut payload = json!({
        "certname": certname,
        "environment": environment,
        "producer_timestamp": time_text(Timestamp::now()),
        "producer": producer,
        "values": values,
    });
    if let Some(packages) = packages {
        payload["package_inventory"] = Value::Array(packages);
    }
    payload
}

/// The metaparameters whose values' order means nothing.
const UNORDERED: [&str; 8] = [
    "alias",
    "audit",
    "before",
    "check",
    "notify",
    "require",
    "subscribe",
    "tag",
];

/// A resource's parameters with the values of each unordered
/// metaparameter sorted by their text, as Puppet's PuppetDB terminus
/// keeps them: a node collecting `tag => ['b', 'a']` gets `['a', 'b']`.
fn unordered_sorted(mut parameters: Map<String, Value>) -> Map<String, Value> {
    for name in UNORDERED {
        if let Some(Value::Array(values)) = parameters.get_mut(name) {
            let text = |value: &Value| match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            values.sort_by_cached_key(text);
        }
    }
    parameters
}

/// `[type, title]` of a reference `Type[title]`.
fn split_reference(reference: &str) -> Option<(String, String)> {
    let (type_name, title) = reference.strip_suffix(']')?.split_once('[')?;
    Some((type_name.to_string(), title.to_string()))
}

/// The references a relationship parameter's value names.
fn references(value: &Value) -> Vec<(String, String)> {
    match value {
        Value::String(text) => split_reference(text).into_iter().collect(),
        Value::Array(items) => items.iter().flat_map(references).collect(),
        _ => Vec::new(),
    }
}

/// `replace catalog` (version 9) from a catalog in Puppet's JSON form,
/// with the node's exported resources. Edges are the catalog's
/// containment plus those its relationship parameters make, and the
/// unordered metaparameters' values are sorted, as Puppet's terminus
/// sends them.
pub fn replace_catalog(catalog: &Value, producer: &str, transaction_uuid: Option<&str>) -> Value {
    let field = |key: &str| catalog.get(key).cloned().unwrap_or(Value::Null);
    let empty = Vec::new();
    let resources = catalog
        .get("resources")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut out_resources = Vec::new();
    let mut edges = Vec::new();
    let endpoint =
        |(type_name, title): &(String, String)| json!({"type": type_name, "title": title});
    for edge in catalog
        .get("edges")
        .and_then(Value::as_array)
        .unwrap_or(&empty)
    {
        let end = |key: &str| {
            edge.get(key)
                .and_then(Value::as_str)
                .and_then(split_reference)
        };
        if let (Some(source), Some(target)) = (end("source"), end("target")) {
            edges.push(json!({
                "source": endpoint(&source),
                "target": endpoint(&target),
                "relationship": "contains",
            }));
        }
    }
    for resource in resources {
        let get = |key: &str| resource.get(key).cloned().unwrap_or(Value::Null);
        let this = (
            get("type").as_str().unwrap_or_default().to_string(),
            get("title").as_str().unwrap_or_default().to_string(),
        );
        let parameters = get("parameters");
        if let Value::Object(parameters) = &parameters {
            for (parameter, relationship, outward) in [
                ("before", "before", true),
                ("require", "required-by", false),
                ("notify", "notifies", true),
                ("subscribe", "subscription-of", false),
            ] {
                for other in parameters
                    .get(parameter)
                    .map(references)
                    .unwrap_or_default()
                {
                    let (source, target) = if outward {
                        (&this, &other)
                    } else {
                        (&other, &this)
                    };
                    edges.push(json!({
                        "source": endpoint(source),
                        "target": endpoint(target),
                        "relationship": relationship,
                    }));
                }
            }
        }
        let mut stored = Map::new();
        stored.insert("type".into(), get("type"));
        stored.insert("title".into(), get("title"));
        stored.insert(
            "exported".into(),
            Value::Bool(get("exported") == Value::Bool(true)),
        );
        if !get("file").is_null() {
            stored.insert("file".into(), get("file"));
            stored.insert("line".into(), get("line"));
        }
        stored.insert("tags".into(), get("tags"));
        stored.insert(
            "parameters".into(),
            match parameters {
                Value::Object(parameters) => Value::Object(unordered_sorted(parameters)),
                _ => json!({}),
            },
        );
        out_resources.push(Value::Object(stored));
    }
    json!({
        "certname": field("name"),
        "version": match field("version") {
            Value::Number(n) => Value::String(n.to_string()),
            other => other,
        },
        "environment": field("environment"),
        "transaction_uuid": transaction_uuid,
        "catalog_uuid": field("catalog_uuid"),
        "code_id": field("code_id"),
        "job_id": null,
        "producer_timestamp": time_text(Timestamp::now()),
        "producer": producer,
        "resources": out_resources,
        "edges": edges,
    })
}

/// `store report` (version 8) from a run report in Puppet's JSON form
/// (what an agent sends to `report/NAME`).
pub fn store_report(report: &Value, producer: &str) -> Value {
    let field = |key: &str| report.get(key).cloned().unwrap_or(Value::Null);
    let started = field("time").as_str().and_then(Timestamp::parse);
    // Puppet's terminus ends the run at its start plus its total time.
    let total = report
        .pointer("/metrics/time/values")
        .and_then(Value::as_array)
        .and_then(|values| {
            values.iter().find_map(|v| {
                let v = v.as_array()?;
                (v.first()?.as_str()? == "total").then(|| v.get(2)?.as_f64())?
            })
        })
        .unwrap_or(0.0);
    let ended = started.map(|start| Timestamp(start.0 + (total * 1e9) as i64));
    let mut resources = Vec::new();
    if let Some(statuses) = report.get("resource_statuses").and_then(Value::as_object) {
        for status in statuses.values() {
            let get = |key: &str| status.get(key).cloned().unwrap_or(Value::Null);
            let events: Vec<Value> = get("events")
                .as_array()
                .map(|events| {
                    events
                        .iter()
                        .map(|event| {
                            let e = |key: &str| event.get(key).cloned().unwrap_or(Value::Null);
                            json!({
                                "status": e("status"),
                                "timestamp": e("time"),
                                "name": e("name"),
                                "property": e("property"),
                                "new_value": e("desired_value"),
                                "old_value": e("previous_value"),
                                "message": e("message"),
                                "corrective_change": e("corrective_change"),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            resources.push(json!({
                "resource_type": get("resource_type"),
                "resource_title": get("title"),
                "file": get("file"),
                "line": get("line"),
                "skipped": get("skipped"),
                "timestamp": get("time"),
                "containment_path": get("containment_path"),
                "corrective_change": get("corrective_change"),
                "events": events,
            }));
        }
    }
    let mut metrics = Vec::new();
    if let Some(categories) = report.get("metrics").and_then(Value::as_object) {
        for (category, metric) in categories {
            for value in metric
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some([name, _, value]) = value.as_array().map(Vec::as_slice) {
                    metrics.push(json!({"category": category, "name": name, "value": value}));
                }
            }
        }
    }
    let logs: Vec<Value> = field("logs")
        .as_array()
        .map(|logs| {
            logs.iter()
                .map(|log| {
                    let l = |key: &str| log.get(key).cloned().unwrap_or(Value::Null);
                    json!({
                        "file": l("file"),
                        "line": l("line"),
                        "level": l("level"),
                        "message": l("message"),
                        "source": l("source"),
                        "tags": l("tags"),
                        "time": l("time"),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "certname": field("host"),
        "environment": field("environment"),
        "puppet_version": field("puppet_version"),
        "report_format": field("report_format"),
        "configuration_version": match field("configuration_version") {
            Value::Number(n) => Value::String(n.to_string()),
            other => other,
        },
        "start_time": started.map(time_text),
        "end_time": ended.map(time_text),
        "producer_timestamp": time_text(Timestamp::now()),
        "producer": producer,
        "transaction_uuid": field("transaction_uuid"),
        "catalog_uuid": field("catalog_uuid"),
        "code_id": field("code_id"),
        "job_id": field("job_id"),
        "cached_catalog_status": field("cached_catalog_status"),
        "status": field("status"),
        "noop": field("noop"),
        "noop_pending": field("noop_pending"),
        "corrective_change": field("corrective_change"),
        "type": "agent",
        "resources": resources,
        "metrics": metrics,
        "logs": logs,
    })
}

/// `deactivate node` (version 3).
pub fn deactivate_node(certname: &str) -> Value {
    json!({
        "certname": certname,
        "producer_timestamp": time_text(Timestamp::now()),
    })
}

/// A random UUID (version 4), as PuppetDB gives a command's receipt.
pub fn receipt() -> String {
    marionette_values::uuid::random_v4()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unordered_metaparameters_are_stored_sorted_and_others_kept_in_order() {
        let catalog = json!({
            "name": "mrtest.example.com",
            "resources": [{
                "type": "File",
                "title": "/tmp/mrtest",
                "tags": ["file", "b", "a"],
                "parameters": {
                    "tag": ["b", "a"],
                    "require": ["Package[z]", "File[a]"],
                    "content": ["b", "a"],
                },
            }],
            "edges": [],
        });
        let stored = replace_catalog(&catalog, "mrtest-producer", None);
        let parameters = &stored["resources"][0]["parameters"];
        assert_eq!(parameters["tag"], json!(["a", "b"]));
        assert_eq!(parameters["require"], json!(["File[a]", "Package[z]"]));
        assert_eq!(parameters["content"], json!(["b", "a"]));
    }
}
