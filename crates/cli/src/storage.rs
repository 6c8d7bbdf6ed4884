//! Storeconfigs: the storage (`marionette_storage`) as the compiler's
//! store of exported resources, and what a compile for a node keeps in it
//! (its facts, and its catalog with the resources it exports).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use marionette_eval::{CollectedResource, ExportedResources};
use marionette_storage::{Paging, Store, commands};
use serde_json::{Value, json};

/// What PuppetDB's settings say of the storage: its retention and who
/// may use its API; for `marionette server` and `marionette storage
/// serve` alike.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct PuppetDbArgs {
    /// How long the storage keeps a node nothing is heard from (no facts,
    /// catalog or report) before it expires, as PuppetDB's `node-ttl`:
    /// `7d`, `12h`, `30m`, `45s`, `500ms`; `0s` never.
    #[arg(long, default_value = "7d", value_name = "DURATION", global = true)]
    node_ttl: String,
    /// How long the storage keeps a deactivated or expired node (with its
    /// facts, catalog and reports) before deleting it, as PuppetDB's
    /// `node-purge-ttl`; `0s` never.
    #[arg(long, default_value = "14d", value_name = "DURATION", global = true)]
    node_purge_ttl: String,
    /// How long the storage keeps a report, as PuppetDB's `report-ttl`;
    /// `0s` for ever.
    #[arg(long, default_value = "14d", value_name = "DURATION", global = true)]
    report_ttl: String,
    /// How long the storage keeps a report's resource events, as
    /// PuppetDB's `resource-events-ttl` (the report stays, without them);
    /// `0s` for ever. Without it, the report TTL.
    #[arg(long, value_name = "DURATION", global = true)]
    resource_events_ttl: Option<String>,
    /// The most deactivated or expired nodes one collection deletes, the
    /// longest gone first, as PuppetDB's `node-purge-gc-batch-limit`; 0
    /// deletes every one due.
    #[arg(long, default_value_t = 25, value_name = "NODES", global = true)]
    node_purge_gc_batch_limit: usize,
    /// Minutes between the storage's collections of what the TTLs no
    /// longer keep (one is made at start), as PuppetDB's `gc-interval`;
    /// 0 makes none.
    #[arg(long, default_value_t = 60, value_name = "MINUTES", global = true)]
    gc_interval: u64,
    /// A file of certificate names, one a line: only they may use
    /// PuppetDB's API (as PuppetDB's `certificate-allowlist`); without
    /// it, any certificate from the CA may.
    #[arg(long, value_name = "FILE", global = true)]
    certificate_allowlist: Option<PathBuf>,
    /// The storage's PostgreSQL database
    /// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE`) instead of the
    /// SQLite file under the vardir; commands wait on disk under the
    /// vardir while it is unavailable.
    #[arg(long, value_name = "URL", global = true)]
    pub(crate) storage_url: Option<String>,
    /// Also answer PuppetDB's API over plain HTTP on this address, as
    /// PuppetDB's `[jetty]` `host` and `port` (`127.0.0.1:8080`), for
    /// tools on this machine: no certificate is asked, so keep it on the
    /// loopback.
    #[arg(long, value_name = "ADDRESS:PORT", global = true)]
    plain_bind: Option<std::net::SocketAddr>,
}

impl PuppetDbArgs {
    /// The plain-HTTP address, with a warning when other machines can
    /// reach what it answers without a certificate.
    pub(crate) fn plain_bind(&self) -> Option<std::net::SocketAddr> {
        if let Some(address) = self.plain_bind
            && !address.ip().is_loopback()
        {
            errln!(
                "Warning: PuppetDB's API over plain HTTP on {address} answers anyone who reaches it, without a certificate; PuppetDB keeps it on the loopback"
            );
        }
        self.plain_bind
    }

    pub(crate) fn retention(&self) -> Result<marionette_storage::Retention> {
        Ok(marionette_storage::Retention {
            node_ttl: marionette_storage::parse_ttl("--node-ttl", &self.node_ttl)?,
            node_purge_ttl: marionette_storage::parse_ttl(
                "--node-purge-ttl",
                &self.node_purge_ttl,
            )?,
            report_ttl: marionette_storage::parse_ttl("--report-ttl", &self.report_ttl)?,
            resource_events_ttl: marionette_storage::parse_ttl(
                "--resource-events-ttl",
                self.resource_events_ttl
                    .as_deref()
                    .unwrap_or(&self.report_ttl),
            )?,
            node_purge_batch_limit: self.node_purge_gc_batch_limit,
        })
    }

    /// The allowlist's names, read once at start as PuppetDB reads it.
    pub(crate) fn allowlist(&self) -> Result<Option<Vec<String>>> {
        self.certificate_allowlist
            .as_deref()
            .map(|path| {
                marionette_server::PuppetDbAccess::read_allowlist(path).with_context(|| {
                    format!("--certificate-allowlist: could not read {}", path.display())
                })
            })
            .transpose()
    }

    /// Checks the retention's settings, applies them now, and then every
    /// `gc_interval` minutes (unless 0).
    pub(crate) fn collect_garbage(&self, store: &Arc<Store>) -> Result<()> {
        let retention = self.retention()?;
        if self.gc_interval == 0 {
            return Ok(());
        }
        collect_garbage(
            store.clone(),
            retention,
            std::time::Duration::from_secs(self.gc_interval.saturating_mul(60)),
        )
    }
}

/// Storeconfigs for a compile outside the server (`apply`, `catalog
/// compile`), as Puppet's settings turn it on for `puppet apply`: the
/// node's facts and catalog kept, with what it exports, and exported
/// resources collected from the storage.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct StoreconfigsArgs {
    /// Keep the node's facts and catalog (with the resources it exports)
    /// in the storage, and collect exported resources from it: the
    /// storage of the server on this machine (the SQLite file under its
    /// vardir), or --storage-url's database. Also `storeconfigs = true`
    /// in the configuration's [main] or [user] section.
    #[arg(long)]
    storeconfigs: bool,
    /// Where storeconfigs are kept: `puppetdb`, the only backend Puppet 7
    /// has, is the storage.
    #[arg(long, value_name = "BACKEND")]
    storeconfigs_backend: Option<String>,
    /// The storage's PostgreSQL database
    /// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE`), shared by the
    /// server and the nodes that apply, instead of the SQLite file.
    #[arg(long, value_name = "URL")]
    storage_url: Option<String>,
}

impl StoreconfigsArgs {
    /// The storage, when storeconfigs are on (on the command line or in
    /// the configuration), for `node`, which produces what is kept.
    pub(crate) fn open(
        &self,
        env: &crate::environment::EnvArgs,
        node: &str,
    ) -> Result<Option<Arc<Storeconfigs>>> {
        let setting = crate::config::user_setting;
        if !self.storeconfigs && setting("storeconfigs").as_deref() != Some("true") {
            return Ok(None);
        }
        let backend = self
            .storeconfigs_backend
            .clone()
            .or_else(|| setting("storeconfigs_backend"));
        check_backend(backend.as_deref().unwrap_or("puppetdb"))?;
        let url = self.storage_url.clone().or_else(|| setting("storage_url"));
        Ok(Some(Arc::new(Storeconfigs::open(
            &crate::server::vardir(env),
            node,
            url.as_deref(),
        )?)))
    }
}

/// Refuses a storeconfigs backend other than the storage.
pub(crate) fn check_backend(backend: &str) -> Result<()> {
    if backend != "puppetdb" {
        anyhow::bail!(
            "--storeconfigs_backend: '{backend}' is not a storeconfigs backend; the one there is, is 'puppetdb'"
        );
    }
    Ok(())
}

/// `marionette storage`: the storage on its own.
#[derive(clap::Args, Debug)]
pub(crate) struct StorageArgs {
    #[command(flatten)]
    puppetdb: PuppetDbArgs,
    /// The certificate name the storage answers as: the server's
    /// certificate and key under --ssldir (default: this machine's host
    /// name).
    #[arg(long, global = true)]
    certname: Option<String>,
    /// The certificate authority's directory: the server's, whose
    /// certificates the clients hold.
    #[arg(long, value_name = "DIR", global = true)]
    cadir: Option<PathBuf>,
    #[command(subcommand)]
    command: StorageCommand,
}

#[derive(clap::Subcommand, Debug)]
enum StorageCommand {
    /// Serve PuppetDB's API (queries, commands, metadata, the population
    /// metrics, status) over the server's storage and nothing else, in
    /// PuppetDB's place: HTTPS with the server's CA and certificate,
    /// to clients with a certificate from that CA.
    Serve(ServeArgs),
}

#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The address and port to listen on (PuppetDB's HTTPS port).
    #[arg(long, default_value = "0.0.0.0:8081")]
    bind: std::net::SocketAddr,
}

/// `marionette storage serve`.
pub(crate) fn run(
    args: StorageArgs,
    env: &crate::environment::EnvArgs,
) -> Result<std::process::ExitCode> {
    let StorageCommand::Serve(serve) = args.command;
    // The settings are checked before anything is opened.
    args.puppetdb.retention()?;
    let allowlist = args.puppetdb.allowlist()?;
    let certname = args.certname.unwrap_or_else(crate::host_name);
    let cadir = args
        .cadir
        .unwrap_or_else(|| crate::apply::vardir().join("ca"));
    if !cadir.join("ca_crt.pem").is_file() {
        anyhow::bail!(
            "There is no certificate authority in {}: the storage serves with the server's (start `marionette server` once, or give --cadir)",
            cadir.display()
        );
    }
    let vardir = crate::server::vardir(env);
    let store = open_store(&vardir, args.puppetdb.storage_url.as_deref())?;
    args.puppetdb.collect_garbage(&store)?;
    let mut ca = marionette_ca::Settings::new(&certname);
    ca.autosign = marionette_ca::Autosign::Off;
    let config = marionette_server::Config {
        bind: serve.bind,
        certname,
        dns_alt_names: Vec::new(),
        cadir,
        ssldir: env.ssldir(),
        vardir,
        ca,
        log_file: None,
        access_log: None,
        audit_log: None,
        storage: Some(store),
        reports: Vec::new(),
        report_processors: Vec::new(),
        ca_admins: Vec::new(),
        limits: marionette_server::Limits::default(),
        puppetdb: marionette_server::PuppetDbAccess {
            allowlist,
            only: true,
            plain_bind: args.puppetdb.plain_bind(),
            retention: args.puppetdb.retention()?,
        },
        versioned_code: Default::default(),
    };
    let server = marionette_server::Server::start(config, Arc::new(NoCompiler))
        .context("could not start serving the storage")?;
    errln!("Notice: Listening on {}", server.address());
    if let Some(plain) = server.plain_address() {
        errln!("Notice: Answering PuppetDB's API over plain HTTP on {plain}");
    }
    server.wait();
    Ok(std::process::ExitCode::SUCCESS)
}

/// What `storage serve` compiles: nothing (it serves no catalogs).
struct NoCompiler;

impl marionette_server::Compiler for NoCompiler {
    fn compile(&self, _: &marionette_server::CompileRequest) -> Result<Vec<u8>, String> {
        Err("This server serves PuppetDB's API alone, no catalogs".into())
    }

    fn environment_of(&self, _: &str) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn modulepath(&self, _: &str) -> Option<Vec<PathBuf>> {
        None
    }

    fn environments(&self) -> Vec<String> {
        Vec::new()
    }
}

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
                "Notice: The storage expired {} node(s), purged {}, deleted {} report(s) and the events of {}",
                collected.expired,
                collected.purged,
                collected.reports,
                collected.events
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

/// The storage a server keeps, for a command that reads or changes what
/// is in it: the PostgreSQL database at `url` (else the configuration's
/// `storage_url`), or the SQLite file under `vardir`, which must exist.
/// `option` names where the error points the user (`--storage`).
pub(crate) fn existing_store(vardir: &Path, url: Option<String>, option: &str) -> Result<Store> {
    match url.or_else(|| crate::config::user_setting("storage_url")) {
        Some(url) => Store::connect(&url)
            .with_context(|| format!("{option}: could not connect to the storage's database")),
        None => {
            let path = database(vardir);
            if !path.exists() {
                anyhow::bail!(
                    "{option}: there is no storage at {} (the server keeps one with --storeconfigs; --vardir names the server's vardir, --storage-url its PostgreSQL database)",
                    path.display()
                );
            }
            Store::open(&path).context("Could not open the storage")
        }
    }
}

/// The storage, for a server whose certname produces what it stores.
pub(crate) struct Storeconfigs {
    pub(crate) store: Arc<Store>,
    pub(crate) producer: String,
}

/// The storage: the SQLite file under `vardir`, or the PostgreSQL
/// database at `url`, whose commands wait in `storage/queue` under
/// `vardir` while it is unavailable (drained every few seconds by a
/// thread of their own).
pub(crate) fn open_store(vardir: &Path, url: Option<&str>) -> Result<Arc<Store>> {
    let Some(url) = url else {
        let path = database(vardir);
        return Ok(Arc::new(
            Store::open(&path).context("could not open the storage")?,
        ));
    };
    let store = Store::connect(url)
        .context("could not connect to the storage's database")?
        .with_queue(&vardir.join("storage/queue"))
        .context("could not open the storage's queue")?;
    let store = Arc::new(store);
    if store.queued() > 0 {
        errln!(
            "Notice: {} command(s) wait in the storage's queue",
            store.queued()
        );
    }
    let drained = store.clone();
    std::thread::Builder::new()
        .name("storage-queue".into())
        .spawn(move || {
            let mut said_down = false;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(5));
                if drained.queued() == 0 {
                    continue;
                }
                match drained.drain() {
                    Ok(stored) => {
                        said_down = false;
                        errln!("Notice: Stored {stored} command(s) queued while the database was unavailable");
                    }
                    Err(error) if !said_down => {
                        said_down = true;
                        errln!(
                            "Warning: {} command(s) wait for the storage's database: {error}",
                            drained.queued()
                        );
                    }
                    Err(_) => {}
                }
            }
        })
        .context("could not start the storage's queue")?;
    Ok(store)
}

impl Storeconfigs {
    pub(crate) fn open(vardir: &Path, producer: &str, url: Option<&str>) -> Result<Storeconfigs> {
        Ok(Storeconfigs {
            store: open_store(vardir, url)?,
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
        let payload = commands::replace_catalog(
            &document,
            &self.producer,
            transaction_uuid,
            &compiled.namevars,
        );
        let (command, version) = commands::REPLACE_CATALOG;
        self.store
            .submit(command, version, &catalog.name, &payload)
            .map_err(|e| format!("Could not store the catalog of {}: {e}", catalog.name))
    }

    /// Compiles as Puppet does with storeconfigs: the node's facts kept
    /// first (with its local trusted data when the compile has none),
    /// other nodes' exports collected from the storage, and the catalog
    /// kept with what the node exports.
    pub(crate) fn compile(
        self: &Arc<Self>,
        mut options: marionette_eval::CompileOptions,
    ) -> Result<(marionette_eval::Compiled, marionette_eval::CompileOptions), String> {
        let trusted = marionette_eval::trusted_data(&options);
        self.store_facts(
            &options.node_name,
            &options.environment,
            &options.facts,
            &trusted,
        )?;
        options.exported = Some(self.clone() as Arc<dyn ExportedResources>);
        let compiled = marionette_eval::compile(&options);
        if let Some(catalog) = &compiled.catalog {
            self.store_catalog(&compiled, catalog, None)?;
        }
        Ok((compiled, options))
    }

    /// Keeps a run's report (its JSON, as `last_run_report.json` has
    /// it), as Puppet's `puppetdb` report processor does after `store`
    /// (`reports = store,puppetdb`).
    pub(crate) fn store_report(&self, report: &[u8]) -> Result<(), String> {
        let report: Value = serde_json::from_slice(report)
            .map_err(|e| format!("Could not read the run's report: {e}"))?;
        let node = report
            .get("host")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let payload = commands::store_report(&report, &self.producer);
        let (command, version) = commands::STORE_REPORT;
        self.store
            .submit(command, version, &node, &payload)
            .map_err(|e| format!("Could not store the report of {node}: {e}"))
    }
}

/// Whether the configuration's `reports` (for `[user]`, default `store`)
/// sends reports to the storage.
pub(crate) fn reports_to_storage() -> bool {
    crate::config::user_setting("reports")
        .is_some_and(|reports| reports.split(',').any(|r| r.trim() == "puppetdb"))
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
