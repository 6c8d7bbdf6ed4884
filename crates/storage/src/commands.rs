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

/// For each resource type (as a catalog writes it, `File`), the attribute
/// whose value names what each of its resources manages, when one alone
/// does (`path` for `File`; none for `Exec`, whose commands may repeat,
/// or `Package`, named with its provider).
pub type Namevars = std::collections::BTreeMap<String, String>;

/// A resource's aliases as the terminus sends them: those it was given,
/// and the value of its type's namevar when that is not its title.
fn namevar_aliases(resource: &Value, namevars: &Namevars) -> Vec<Value> {
    let parameters = resource.get("parameters");
    let mut aliases: Vec<Value> = match parameters.and_then(|p| p.get("alias")) {
        Some(Value::Array(given)) => given.iter().filter(|a| !a.is_null()).cloned().collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(one) => vec![one.clone()],
    };
    let name = resource
        .get("type")
        .and_then(Value::as_str)
        .and_then(|type_name| namevars.get(type_name))
        .and_then(|namevar| parameters?.get(namevar));
    if let Some(name) = name
        && resource.get("title") != Some(name)
        && !aliases.contains(name)
    {
        aliases.push(name.clone());
    }
    aliases
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
///
/// As the terminus, a resource named otherwise than by its title (a
/// `file { 'motd': path => '/etc/motd' }`, a title with a trailing slash)
/// gets that name among its `alias`es, and a relationship naming a
/// resource by an alias is an edge to its title. `namevars` says, for
/// each type (as the catalog writes it), which attribute names what its
/// resources manage; a type it lacks gets no alias.
pub fn replace_catalog(
    catalog: &Value,
    producer: &str,
    transaction_uuid: Option<&str>,
    namevars: &Namevars,
) -> Value {
    let field = |key: &str| catalog.get(key).cloned().unwrap_or(Value::Null);
    let empty = Vec::new();
    let resources = catalog
        .get("resources")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let aliases: Vec<Vec<Value>> = resources
        .iter()
        .map(|resource| namevar_aliases(resource, namevars))
        .collect();
    // (type, alias) to the title it stands for.
    let mut titles = std::collections::HashMap::new();
    for (resource, names) in resources.iter().zip(&aliases) {
        let text = |key: &str| {
            resource
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        for name in names.iter().filter_map(Value::as_str) {
            titles.insert((text("type"), name), text("title"));
        }
    }
    let titled = |(type_name, title): (String, String)| {
        let titled = titles
            .get(&(type_name.as_str(), title.as_str()))
            .map(|titled| titled.to_string());
        (type_name, titled.unwrap_or(title))
    };
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
    for (resource, aliases) in resources.iter().zip(&aliases) {
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
                    .into_iter()
                    .map(titled)
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
                Value::Object(mut parameters) => {
                    if !aliases.is_empty() {
                        parameters.insert("alias".into(), Value::Array(aliases.clone()));
                    }
                    Value::Object(unordered_sorted(parameters))
                }
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
        let stored = replace_catalog(&catalog, "mrtest-producer", None, &Default::default());
        let parameters = &stored["resources"][0]["parameters"];
        assert_eq!(parameters["tag"], json!(["a", "b"]));
        assert_eq!(parameters["require"], json!(["File[a]", "Package[z]"]));
        assert_eq!(parameters["content"], json!(["b", "a"]));
    }

    /// As the terminus: a resource named otherwise than by its title gets
    /// its name among its aliases, not twice, and only for a type named by
    /// one attribute; a relationship to an alias is an edge to the title.
    #[test]
    fn resources_named_otherwise_than_by_title_get_their_name_as_an_alias() {
        let catalog = json!({
            "name": "mrtest.example.com",
            "resources": [
                {"type": "File", "title": "motd", "tags": [],
                 "parameters": {"path": "/etc/motd", "alias": "banner"}},
                {"type": "File", "title": "/etc/issue", "tags": [], "parameters": {}},
                {"type": "Service", "title": "web", "tags": [],
                 "parameters": {"name": "nginx", "alias": ["nginx"],
                                "subscribe": "File[/etc/motd]"}},
                {"type": "Exec", "title": "refresh", "tags": [],
                 "parameters": {"command": "/bin/true"}},
            ],
            "edges": [],
        });
        let namevars: Namevars = [("File", "path"), ("Service", "name")]
            .into_iter()
            .map(|(t, n)| (t.to_string(), n.to_string()))
            .collect();
        let stored = replace_catalog(&catalog, "mrtest-producer", None, &namevars);
        let alias = |index: usize| stored["resources"][index]["parameters"]["alias"].clone();
        assert_eq!(alias(0), json!(["/etc/motd", "banner"]));
        assert_eq!(alias(1), Value::Null);
        assert_eq!(alias(2), json!(["nginx"]));
        assert_eq!(alias(3), Value::Null, "Exec is in no namevars");
        assert!(
            stored["edges"].as_array().unwrap().contains(&json!({
                "source": {"type": "File", "title": "motd"},
                "target": {"type": "Service", "title": "web"},
                "relationship": "subscription-of",
            })),
            "{}",
            stored["edges"]
        );
    }
}
