//! What the host was asked to register, kept so that a host started after
//! one that stopped (a crash, a hang past the time limit, output that is
//! not the protocol) is brought back to where the old one was: the
//! functions loaded, the types and providers loaded for applying, the
//! resources made (under the ids the engine already holds) and the
//! providers prefetched. Without it, every later request about a resource
//! of the run would fail with the new host's "key not found", and one
//! provider that kills the host would fail the whole rest of the run
//! rather than its own resources.

use std::collections::HashSet;

use serde_json::{Value as Json, json};

/// The requests that registered something, in the order they succeeded.
#[derive(Default)]
pub(crate) struct Journal {
    entries: Vec<(String, Json)>,
    /// What identifies each entry, so that a request made again (a
    /// function loaded by each compile) is kept once.
    keys: HashSet<String>,
}

impl Journal {
    /// Whether a request of `method` registers something worth keeping.
    pub(crate) fn keeps(method: &str) -> bool {
        matches!(
            method,
            "load_function" | "apply_load" | "resource_new" | "resources_new" | "provider_prefetch"
        )
    }

    /// Keeps what the request `method` with `params`, answered `result`,
    /// registered. A resource is kept as `resource_new` with its id, so
    /// that the new host makes it under the id the engine knows.
    pub(crate) fn record(&mut self, method: &str, params: &Json, result: &Json) {
        match method {
            "resource_new" => self.resource(params, result.get("id")),
            "resources_new" => {
                let made = result.get("resources").and_then(Json::as_array);
                let asked = params.get("resources").and_then(Json::as_array);
                for (one, made) in asked.into_iter().flatten().zip(made.into_iter().flatten()) {
                    let params = json!({
                        "type": params.get("type"),
                        "provider": params.get("provider"),
                        "title": one.get("title"),
                        "values": one.get("values"),
                        "path": one.get("path"),
                    });
                    self.resource(&params, made.get("id"));
                }
            }
            _ => self.add(format!("{method} {params}"), method, params.clone()),
        }
    }

    fn resource(&mut self, params: &Json, id: Option<&Json>) {
        let Some(id) = id.and_then(Json::as_u64) else {
            return;
        };
        let mut params = params.clone();
        params["id"] = json!(id);
        self.add(format!("resource {id}"), "resource_new", params);
    }

    fn add(&mut self, key: String, method: &str, params: Json) {
        if self.keys.insert(key) {
            self.entries.push((method.to_string(), params));
        }
    }

    /// The requests to make again, in order.
    pub(crate) fn entries(&self) -> Vec<(String, Json)> {
        self.entries.clone()
    }
}
