//! `marionette server`: Puppet's HTTPS API, so stock Puppet 7 agents (and
//! `marionette agent`) can be served by one small process.
//!
//! # Interface
//!
//! ```text
//! Server::start(config: Config, compiler: Arc<dyn Compiler>) -> Result<Server, ServerError>
//!   .address() -> SocketAddr      .wait()      .stop()
//! ```
//!
//! The server owns TLS (its certificate from its own CA, client
//! certificates verified against the CA and its CRL, revoked ones refused
//! at the handshake), the certificate authority's `puppet-ca/v1` API
//! (`marionette_ca`), authorization as Puppet's defaults have it, the file
//! mounts agents sync from (`plugins`, `pluginfacts`, `locales`,
//! `modules/<name>`), and the reports agents send. Compiling belongs to the
//! caller: a [`Compiler`] turns a node's facts and trusted data into a
//! catalog and says where an environment's modules are. Compiles run in
//! parallel, one per core; requests beyond wait in a queue instead of
//! being refused, since Debian's Puppet 7 agent fails on a 503 rather than
//! retrying.
//!
//! # Endpoints
//!
//! - `puppet-ca/v1`: `certificate/{ca,NAME}`, `certificate_revocation_list/ca`,
//!   `certificate_request/NAME` (PUT, GET), `certificate_status/NAME`
//!   (GET, PUT `desired_state` signed or revoked, DELETE),
//!   `certificate_statuses/KEY`.
//! - `puppet/v3`: `node/NAME`, `catalog/NAME` (POST with the facts form, or
//!   GET), `file_metadata(s)/MOUNT/PATH`, `file_content/MOUNT/PATH`,
//!   `static_file_content/PATH?code_id=` (static catalogs: see
//!   [`VersionedCode`]), `report/NAME` (PUT), `environments`,
//!   `file_bucket_file/ALGORITHM/SUM[/PATH]` (GET, HEAD, PUT).
//! - `status/v1/simple`, `status/v1/services` (`?level=debug` adds the
//!   counts), and `metrics` in Prometheus's text format.
//! - `puppet-admin-api/v1/environment-cache` and `.../jruby-pool` (DELETE,
//!   for CA administrators' certificates): forget made environments.
//! - `pdb/query/v4/...`, `pdb/cmd/v1`, `pdb/meta/v1/version`: PuppetDB's
//!   API over the storage, when the server has one (`marionette_storage`).
//!
//! Responses carry `X-Puppet-Version`, are gzipped when the client asks,
//! and are written with `TCP_NODELAY` set.

mod admission;
mod api_ca;
mod api_pdb;
mod api_v3;
mod bucket;
mod files;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod http;
mod logs;
mod metrics;
mod pool;
mod server;
mod static_catalog;
mod status;
mod timed;
mod tls;

use std::net::SocketAddr;
use std::path::PathBuf;

pub use crate::logs::LogTarget;
pub use crate::server::Server;
pub use crate::static_catalog::VersionedCode;

/// The Puppet version the server says it is: the one whose API it speaks.
pub const PUPPET_VERSION: &str = "7.23.0";

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (`0.0.0.0:8140`).
    pub bind: SocketAddr,
    /// The server's certificate name.
    pub certname: String,
    /// Names besides the certname the server's certificate holds.
    pub dns_alt_names: Vec<String>,
    /// The certificate authority's directory.
    pub cadir: PathBuf,
    /// The server's own certificate and key (`certs/`, `private_keys/`).
    pub ssldir: PathBuf,
    /// Where received reports are kept, per node.
    pub vardir: PathBuf,
    /// The CA's settings: autosign, key length, time to live.
    pub ca: marionette_ca::Settings,
    /// Where the server's log goes (a file, syslog or the journal),
    /// instead of standard error.
    pub log_file: Option<LogTarget>,
    /// Where one line per request goes, in puppetserver's access log
    /// format.
    pub access_log: Option<LogTarget>,
    /// Where the certificate authority's actions are written (who did
    /// what to which certificate); the server's log when `None`.
    pub audit_log: Option<LogTarget>,
    /// The nodes' storage (storeconfigs), which `/pdb/` answers from;
    /// without it, `/pdb/` says there is none.
    pub storage: Option<std::sync::Arc<marionette_storage::Store>>,
    /// Puppet's `reports` setting: `store` keeps each report as a file,
    /// `puppetdb` in the storage.
    pub reports: Vec<String>,
    /// The report processors the caller gives beyond `store` and
    /// `puppetdb` (`log`, `http`, ...), run for each report when
    /// [`Config::reports`] names them.
    pub report_processors: Vec<std::sync::Arc<dyn ReportProcessor>>,
    /// Certificates allowed to administer the CA over the API besides
    /// those carrying `pp_cli_auth` (puppetserver's `auth.conf` rule for
    /// `certificate_status`). Where a request comes from grants nothing.
    pub ca_admins: Vec<String>,
    /// What one client may hold of the server.
    pub limits: Limits,
    /// Who may use PuppetDB's API, and whether it is all the server
    /// serves.
    pub puppetdb: PuppetDbAccess,
    /// Static catalogs: the commands that give the code's version and a
    /// file's content at a version (puppetserver's `versioned-code`);
    /// without the first, catalogs are not static.
    pub versioned_code: VersionedCode,
}

/// Who may use PuppetDB's API (`/pdb/`, `/metrics/v2/`), and whether the
/// server serves nothing else (`marionette storage serve`, in PuppetDB's
/// place).
#[derive(Clone, Debug, Default)]
pub struct PuppetDbAccess {
    /// PuppetDB's `certificate-allowlist`: the certificate names that may
    /// use the API (each with a certificate from the CA besides); `None`
    /// lets any certificate from the CA.
    pub allowlist: Option<Vec<String>>,
    /// Serve PuppetDB's API and the status API alone: Puppet's API, the
    /// CA's included, is not found.
    pub only: bool,
    /// Also serve PuppetDB's API (and the status API) over plain HTTP on
    /// this address, as PuppetDB's `[jetty]` `host` and `port` do for
    /// tools on its machine: no certificate is asked, and the allowlist
    /// does not apply.
    pub plain_bind: Option<std::net::SocketAddr>,
    /// The storage's retention settings, which PuppetDB's admin `clean`
    /// command applies on demand.
    pub retention: marionette_storage::Retention,
}

/// The paths of PuppetDB's API and of the status API, all that a server
/// in PuppetDB's place, or its plain-HTTP port, answers.
pub(crate) fn is_puppetdb_path(path: &str) -> bool {
    path.starts_with("/pdb/") || path.starts_with("/metrics/v2/") || path.starts_with("/status/v1/")
}

impl PuppetDbAccess {
    /// Reads a `certificate-allowlist` file: one certificate name a line,
    /// blank lines left out.
    pub fn read_allowlist(path: &std::path::Path) -> std::io::Result<Vec<String>> {
        Ok(std::fs::read_to_string(path)?
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(str::to_string)
            .collect())
    }

    /// Whether a client with this certificate name may use the API.
    pub(crate) fn allows(&self, client: &crate::http::Client) -> bool {
        if client.plain {
            return true;
        }
        match (client.certname(), &self.allowlist) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(name), Some(allowed)) => allowed.iter().any(|a| a == name),
        }
    }
}

/// Bounds on what clients may hold: connections, time and request sizes.
/// The defaults follow puppetserver's (Jetty's 30-second idle timeout).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections served at once; more wait in the listen queue.
    pub max_connections: usize,
    /// How long a TLS handshake may take.
    pub handshake_timeout: std::time::Duration,
    /// How long a connection may stay silent: waiting for a request's
    /// head (including between kept-alive requests) or for the next part
    /// of its body.
    pub idle_timeout: std::time::Duration,
    /// The largest facts upload: a catalog request's form or a facts
    /// `PUT`.
    pub max_facts_bytes: usize,
    /// The largest report (and PuppetDB command).
    pub max_report_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1000,
            handshake_timeout: std::time::Duration::from_secs(10),
            idle_timeout: std::time::Duration::from_secs(30),
            max_facts_bytes: 32 * 1024 * 1024,
            max_report_bytes: 256 * 1024 * 1024,
        }
    }
}

/// A catalog asked for by a node.
#[derive(Clone, Debug)]
pub struct CompileRequest {
    pub node: String,
    pub environment: String,
    /// The facts the agent sent (`values` of its facts document).
    pub facts: serde_json::Map<String, serde_json::Value>,
    /// `$trusted`, from the verified certificate.
    pub trusted: serde_json::Value,
    pub transaction_uuid: Option<String>,
}

/// What the server asks of the engine.
pub trait Compiler: Send + Sync {
    /// The catalog as Puppet's JSON text, or why there is none (the
    /// compile's error, in Puppet's words).
    fn compile(&self, request: &CompileRequest) -> Result<Vec<u8>, String>;

    /// The environment a node is to be in, when something other than the
    /// node decides it (an external node classifier); `None` leaves the
    /// node's choice.
    fn environment_of(&self, node: &str) -> Result<Option<String>, String>;

    /// The module directories of an environment, or `None` when there is
    /// no such environment.
    fn modulepath(&self, environment: &str) -> Option<Vec<PathBuf>>;

    /// The environments there are.
    fn environments(&self) -> Vec<String>;

    /// The classes of an environment's manifests, as puppetserver's
    /// `environment_classes` lists them (`{"files": [...]}`), or `None`
    /// when there is no such environment.
    fn environment_classes(&self, _environment: &str) -> Option<serde_json::Value> {
        None
    }

    /// An environment's directory, whose modules' files static catalogs
    /// inline, when its catalogs may be static; `None` (the default) makes
    /// none static.
    fn static_catalog_dir(&self, _environment: &str) -> Option<PathBuf> {
        None
    }

    /// Forgets what was made of an environment (all of them for `None`):
    /// the next compile reads its code, data and modules' Ruby afresh
    /// (puppetserver's admin API `environment-cache` and `jruby-pool`).
    fn flush_environments(&self, _environment: Option<&str>) {}

    /// How many environments are kept made between compiles.
    fn environments_cached(&self) -> usize {
        0
    }
}

/// A report processor of Puppet's `reports` setting: given each report a
/// node sends (Puppet's JSON report), after the server stored it. It runs
/// apart from the request, so a slow one never keeps an agent waiting;
/// what it says goes to the server's log through `log`, one line at a
/// time, each starting with its level (`Notice: `, `Error: `).
pub trait ReportProcessor: Send + Sync + std::fmt::Debug {
    /// Its name in `reports`.
    fn name(&self) -> &str;

    /// Handles the report of `node`; an error is logged with the
    /// processor's name.
    fn process(
        &self,
        node: &str,
        report: &serde_json::Value,
        log: &dyn Fn(&str),
    ) -> Result<(), String>;
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("the certificate authority: {0}")]
    Ca(#[from] marionette_ca::CaError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("TLS: {0}")]
    Tls(String),
}
