//! Storeconfigs: the storage (`marionette_storage`) as the compiler's
//! store of exported resources, and what a compile for a node keeps in it
//! (its facts, and its catalog with the resources it exports).

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use marionette_eval::{CollectedResource, ExportedResources};
use marionette_storage::{Paging, Store, commands};
use serde_json::{Value, json};

/// Applies the storage's retention now (an error stops the server from
/// starting), then every `interval` in a thread of its own for as long
/// as the process lives, saying in the server's log what each
/// collection removed and why one failed.
pub(crate) fn collect_garbage(
    store: Arc<Store>,
    retention: marionette_storage::Retention,
    interval: std::time::Duration,
) -> Result<()> {
    let report = |collected: marionette_storage::Collected| {
        if collected != marionette_storage::Collected::default() {
            errln!(
                "Notice: The storage expired {} node(s), purged {} and deleted {} report(s)",
                collected.expired,
                collected.purged,
                collected.reports
            );
        }
    };
    report(
        store
            .collect_garbage(&retention)
            .context("could not apply the storage's retention")?,
    );
    std::thread::Builder::new()
        .name("storage-gc".into())
        .spawn(move || {
            loop {
                std::thread::sleep(interval);
                match store.collect_garbage(&retention) {
                    Ok(collected) => report(collected),
                    Err(error) => errln!("Error: Could not apply the storage's retention: {error}"),
                }
            }
        })
        .context("could not start the storage's collections")?;
    Ok(())
}

/// The storage's file under a server's vardir.
pub(crate) fn database(vardir: &Path) -> std::path::PathBuf {
    vardir.join("storage/marionette.sqlite3")
}

/// The storage, for a server whose certname produces what it stores.
pub(crate) struct Storeconfigs {
    pub(crate) store: Arc<Store>,
    pub(crate) producer: String,
}

impl Storeconfigs {
    pub(crate) fn open(vardir: &Path, producer: &str) -> Result<Storeconfigs> {
        let path = database(vardir);
        let store = Store::open(&path).context("could not open the storage")?;
        Ok(Storeconfigs {
            store: Arc::new(store),
            producer: producer.to_string(),
        })
    }

    /// Keeps the facts a node sent, as the facts terminus does before the
    /// node's catalog is compiled.
    pub(crate) fn store_facts(
        &self,
        node: &str,
        environment: &str,
        facts: &serde_json::Map<String, Value>,
        trusted: &Value,
    ) -> Result<(), String> {
        let payload =
            commands::replace_facts(node, environment, facts, Some(trusted), &self.producer);
        let (command, version) = commands::REPLACE_FACTS;
        self.store
            .submit(command, version, node, &payload)
            .map_err(|e| format!("Could not store the facts of {node}: {e}"))
    }

    /// Keeps a node's compiled catalog, with the resources it exports and
    /// does not collect, which its agent never sees.
    pub(crate) fn store_catalog(
        &self,
        compiled: &marionette_eval::Compiled,
        catalog: &marionette_catalog::Catalog,
        transaction_uuid: Option<&str>,
    ) -> Result<(), String> {
        let mut document = serde_json::to_value(catalog).map_err(|e| e.to_string())?;
        if let Some(Value::Array(resources)) = document.get_mut("resources") {
            for resource in &compiled.exported {
                resources.push(serde_json::to_value(resource).map_err(|e| e.to_string())?);
            }
        }
        if let Some(Value::Array(edges)) = document.get_mut("edges") {
            for edge in &compiled.exported_edges {
                edges.push(serde_json::to_value(edge).map_err(|e| e.to_string())?);
            }
        }
        let payload = commands::replace_catalog(&document, &self.producer, transaction_uuid);
        let (command, version) = commands::REPLACE_CATALOG;
        self.store
            .submit(command, version, &catalog.name, &payload)
            .map_err(|e| format!("Could not store the catalog of {}: {e}", catalog.name))
    }
}

impl ExportedResources for Storeconfigs {
    fn query(&self, query: Value) -> Result<Value, String> {
        let found = marionette_storage::endpoint("", Some(query)).map_err(|e| e.to_string())?;
        let rows = self
            .store
            .query(&found.entity, found.query.as_ref(), &found.paging)
            .map_err(|e| e.to_string())?;
        Ok(Value::Array(rows))
    }

    /// The query Puppet's PuppetDB terminus makes of an exported
    /// collector.
    fn search(
        &self,
        type_name: &str,
        node: &str,
        filter: Option<Value>,
    ) -> Result<Vec<CollectedResource>, String> {
        let mut query = json!([
            "and",
            ["=", "type", type_name],
            ["=", "exported", true],
            ["not", ["=", "certname", node]]
        ]);
        if let (Some(filter), Some(all)) = (filter, query.as_array_mut()) {
            all.push(filter);
        }
        let rows = self
            .store
            .query("resources", Some(&query), &Paging::default())
            .map_err(|e| format!("Could not retrieve resources from the storage: {e}"))?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let text = |key: &str| row.get(key).and_then(Value::as_str).unwrap_or_default();
                CollectedResource {
                    certname: text("certname").to_string(),
                    type_name: text("type").to_string(),
                    title: text("title").to_string(),
                    parameters: row
                        .get("parameters")
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default(),
                }
            })
            .collect())
    }
}
