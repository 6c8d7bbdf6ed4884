//! What PuppetDB says of itself beside its queries, in its shapes: the
//! server's time (`/pdb/meta/v1/server-time`), its status service
//! (`/status/v1/services/puppetdb-status`), and the population metrics
//! Puppetboard's overview reads through the Jolokia form of
//! `/metrics/v2` (`read/puppetlabs.puppetdb.population:name=num-nodes`,
//! `list`).

use serde_json::{Map, Value, json};

use crate::{Store, StoreError};

/// The PuppetDB version whose API the store answers.
pub const PUPPETDB_VERSION: &str = "7.12.1";

/// The metrics' domain.
const POPULATION: &str = "puppetlabs.puppetdb.population";

/// The population metrics, by name.
const METRICS: &[&str] = &[
    "num-nodes",
    "num-active-nodes",
    "num-inactive-nodes",
    "num-resources",
    "avg-resources-per-node",
    "pct-resource-dupes",
];

/// How many nodes and resources the store keeps, as PuppetDB's
/// population metrics count them: resources are those of active nodes'
/// catalogs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Population {
    pub active_nodes: u64,
    pub inactive_nodes: u64,
    pub resources: u64,
    /// Resources that differ (by type, title and parameters).
    pub distinct_resources: u64,
}

impl Population {
    fn value(&self, metric: &str) -> Option<Value> {
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        Some(match metric {
            "num-nodes" | "num-active-nodes" => json!(self.active_nodes),
            "num-inactive-nodes" => json!(self.inactive_nodes),
            "num-resources" => json!(self.resources),
            "avg-resources-per-node" => json!(ratio(self.resources, self.active_nodes)),
            "pct-resource-dupes" => json!(ratio(
                self.resources - self.distinct_resources.min(self.resources),
                self.resources
            )),
            _ => return None,
        })
    }
}

/// `/pdb/meta/v1/server-time`: now, as PuppetDB prints times.
pub fn server_time() -> Value {
    json!({"server_time": crate::store::now()})
}

/// `/status/v1/services/puppetdb-status`: the status service's entry for
/// PuppetDB, with the database up when it answers, and the commands
/// queued on disk for it.
pub fn status(store: &Store) -> Value {
    let up = store.is_up();
    json!({
        "service_version": PUPPETDB_VERSION,
        "service_status_version": 1,
        "detail_level": "info",
        "state": if up { "running" } else { "error" },
        "status": {
            "maintenance_mode?": false,
            "queue_depth": store.queued(),
            "read_db_up?": up,
            "write_db_up?": up,
            "write_dbs_up?": up,
            "write_db": {"default": {"up?": up}},
        },
        "active_alerts": [],
    })
}

/// Why a metrics request is not answered.
fn jolokia_error(request: Value, status: u16, message: String) -> Value {
    json!({
        "request": request,
        "status": status,
        "error_type": "javax.management.InstanceNotFoundException",
        "error": message,
    })
}

fn seconds_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Undoes Jolokia's escapes in a path (`!/` for `/`, `!!` for `!`,
/// `!"` for `"`).
fn unescape(path: &str) -> String {
    let mut out = String::new();
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        if c == '!' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// `/metrics/v2/REST` (`read/MBEAN[/ATTRIBUTE]` or `list`): Jolokia's
/// answer, whose `status` says whether the metric exists. Only the
/// population metrics are kept.
pub fn metrics(store: &Store, rest: &str) -> Result<Value, StoreError> {
    let rest = rest.trim_matches('/');
    if rest == "list" {
        let mut names = Map::new();
        for metric in METRICS {
            names.insert(
                format!("name={metric}"),
                json!({"desc": "Population metric", "attr": {"Value": {"rw": false, "type": "java.lang.Object", "desc": "Attribute exposed for management"}}}),
            );
        }
        let mut domains = Map::new();
        domains.insert(POPULATION.to_string(), Value::Object(names));
        return Ok(json!({
            "request": {"type": "list"},
            "value": domains,
            "timestamp": seconds_now(),
            "status": 200,
        }));
    }
    let Some(read) = rest.strip_prefix("read/") else {
        return Ok(jolokia_error(
            json!({"type": rest.split('/').next().unwrap_or_default()}),
            400,
            format!("Only 'read' and 'list' are answered, not '{rest}'"),
        ));
    };
    let mut parts = read.splitn(2, '/');
    let mbean = unescape(parts.next().unwrap_or_default());
    let attribute = parts.next().map(unescape);
    let mut request = json!({"mbean": mbean, "type": "read"});
    if let Some(attribute) = &attribute {
        request["attribute"] = json!(attribute);
    }
    let metric = mbean
        .strip_prefix(POPULATION)
        .and_then(|m| m.strip_prefix(":name="))
        .filter(|m| METRICS.contains(m));
    let Some(metric) = metric else {
        return Ok(jolokia_error(request, 404, mbean));
    };
    let population = store.population_counted(metric == "pct-resource-dupes")?;
    let value = population.value(metric).unwrap_or(Value::Null);
    let value = match attribute.as_deref() {
        None => json!({"Value": value}),
        Some("Value") => value,
        Some(other) => {
            return Ok(jolokia_error(
                request,
                404,
                format!("No attribute {other} for MBean {mbean}"),
            ));
        }
    };
    Ok(json!({
        "request": request,
        "value": value,
        "timestamp": seconds_now(),
        "status": 200,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jolokia_escapes_are_undone() {
        assert_eq!(unescape("a!/b!!c!\"d"), "a/b!c\"d");
        assert_eq!(unescape("plain"), "plain");
    }

    #[test]
    fn population_ratios_do_not_divide_by_zero() {
        let empty = Population::default();
        assert_eq!(empty.value("avg-resources-per-node"), Some(json!(0.0)));
        assert_eq!(empty.value("pct-resource-dupes"), Some(json!(0.0)));
        let some = Population {
            active_nodes: 2,
            inactive_nodes: 1,
            resources: 10,
            distinct_resources: 8,
        };
        assert_eq!(some.value("num-nodes"), Some(json!(2)));
        assert_eq!(some.value("num-inactive-nodes"), Some(json!(1)));
        assert_eq!(some.value("avg-resources-per-node"), Some(json!(5.0)));
        assert_eq!(some.value("pct-resource-dupes"), Some(json!(0.2)));
        assert_eq!(some.value("nothing"), None);
    }
}
