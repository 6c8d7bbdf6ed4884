//! The agent's side of Puppet's HTTPS API, for `marionette agent`: it
//! gets the agent a certificate, syncs the modules' plugins, asks for the
//! node's environment and catalog, and sends the report. Applying the
//! catalog is the caller's (the transaction). It speaks to `marionette
//! server` and to Puppet's own server alike.
//!
//! # Interface
//!
//! ```text
//! Agent::connect(Settings) -> Result<Agent, AgentError>   // bootstraps: key, CSR, certificate, CRL
//!   .environment(requested) -> Result<String, AgentError>  // the node's, as the server decides
//!   .pluginsync(environment) -> Result<Synced, AgentError> // plugins into libdir, pluginfacts into pluginfactdest
//!   .catalog(environment, &facts) -> Result<Vec<u8>, AgentError>   // Puppet's JSON
//!   .mirror(environment, "modules/NAME/PATH", target) -> Result<Synced, AgentError>  // a puppet:/// source
//!   .send_report(environment, &report_json) -> Result<(), AgentError>
//!   .filebucket(environment) -> Result<Bucket, AgentError>  // the server's bucket, on a connection of its own
//! Bucket.put(sum, bytes, path)    .get(sum)             // file_bucket_file by sha256
//! ```
//!
//! Files it keeps, as Puppet's agent: `ssldir/certs/ca.pem`,
//! `ssldir/crl.pem`, `ssldir/private_keys/NAME.pem` (0600),
//! `ssldir/public_keys/NAME.pem`, `ssldir/certs/NAME.pem`; synced plugins
//! under `libdir` and external facts under `pluginfactdest`.

mod http;
mod pluginsync;
mod ssl;

use std::path::PathBuf;
use std::time::Duration;

pub use crate::pluginsync::Synced;

/// How the agent reaches its server and where it keeps its files.
#[derive(Clone, Debug)]
pub struct Settings {
    pub server: String,
    pub port: u16,
    pub certname: String,
    pub ssldir: PathBuf,
    /// Where synced plugins go (Puppet's `libdir`).
    pub libdir: PathBuf,
    /// Where synced external facts go (Puppet's `pluginfactdest`).
    pub pluginfactdest: PathBuf,
    /// How long to wait between asks for a certificate not signed yet;
    /// zero gives up at once.
    pub waitforcert: Duration,
    /// The CA certificate's SHA-256 fingerprint the agent insists on when
    /// it first downloads it (`AA:BB:...`), instead of trusting the first
    /// answer.
    pub ca_fingerprint: Option<String>,
    pub keylength: usize,
    /// Extension requests for the certificate request, from
    /// `csr_attributes.yaml` (`pp_role`, dotted OIDs).
    pub extension_requests: Vec<(String, String)>,
    /// How long connecting to the server (with the TLS handshake) may
    /// take (Puppet's `http_connect_timeout`, 120 s).
    pub http_connect_timeout: Duration,
    /// How long the server may keep the agent waiting for the next part
    /// of an answer (Puppet's `http_read_timeout`, 600 s).
    pub http_read_timeout: Duration,
}

/// Why the agent could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("Could not connect to the server: {0}")]
    Unreachable(String),
    #[error("TLS: {0}")]
    Tls(String),
    /// The server did not connect or answer in time.
    #[error("Timed out: {0}")]
    Timeout(String),
    #[error("{0}")]
    Http(String),
    /// The server answered with an error.
    #[error("Error {status} on SERVER: {message}")]
    Server { status: u16, message: String },
    #[error(
        "Couldn't fetch certificate from CA server; you might still need to sign this agent's certificate ({0}). Exiting now because the waitforcert setting is set to 0."
    )]
    NotSigned(String),
    #[error("The CA certificate's fingerprint is {actual}, not the expected {expected}")]
    Fingerprint { expected: String, actual: String },
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the certificate authority: {0}")]
    Ca(#[from] marionette_ca::CaError),
}

pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> AgentError {
    let what = what.into();
    move |source| AgentError::Io { what, source }
}

/// An agent with its certificate, talking to its server.
pub struct Agent {
    settings: Settings,
    client: http::Client,
}

impl Agent {
    /// Makes sure the agent has the CA certificate, the CRL, a key and a
    /// signed certificate (asking for one, and waiting for it as
    /// `waitforcert` says), then connects with it.
    pub fn connect(settings: Settings) -> Result<Agent, AgentError> {
        let tls = ssl::bootstrap(&settings)?;
        let client = http::Client::new(&settings, tls)?;
        Ok(Agent { settings, client })
    }

    /// The agent's certificate name.
    pub fn certname(&self) -> &str {
        &self.settings.certname
    }

    /// A GET of the server's, or its error.
    pub(crate) fn get(&mut self, path: &str) -> Result<http::Answer, AgentError> {
        let answer = self.client.send("GET", path, None, Vec::new())?;
        ok(answer)
    }

    /// The environment the server puts the node in (its classifier's, or
    /// the one asked for).
    pub fn environment(&mut self, requested: &str) -> Result<String, AgentError> {
        let path = format!(
            "/puppet/v3/node/{}?environment={}&configured_environment={}",
            self.settings.certname,
            encode(requested),
            encode(requested)
        );
        let answer = self.get(&path)?;
        let node: serde_json::Value = serde_json::from_slice(&answer.body)
            .map_err(|e| AgentError::Http(format!("the node's data is not JSON: {e}")))?;
        Ok(node
            .get("environment")
            .and_then(|e| e.as_str())
            .unwrap_or(requested)
            .to_string())
    }

    /// Syncs the modules' plugins (`lib`) into `libdir` and their
    /// external facts (`facts.d`) into `pluginfactdest`.
    pub fn pluginsync(&mut self, environment: &str) -> Result<Synced, AgentError> {
        let mut synced = Synced::default();
        // Marionette's server gives the whole set in one answer; Puppet's
        // does not know the request, and gets one per file.
        let whole = format!(
            "/puppet/v3/marionette_plugins?environment={}",
            encode(environment)
        );
        if let Ok(answer) = self.get(&whole) {
            let targets = [
                ("plugins", self.settings.libdir.clone()),
                ("pluginfacts", self.settings.pluginfactdest.clone()),
            ];
            pluginsync::unpack(&answer.body, &targets, &mut synced)?;
            return Ok(synced);
        }
        let pluginfacts = self.settings.pluginfactdest.clone();
        let plugins = self.settings.libdir.clone();
        for (mount, target) in [("pluginfacts", pluginfacts), ("plugins", plugins)] {
            pluginsync::sync(self, environment, mount, &target, &mut synced)?;
        }
        Ok(synced)
    }

    /// Mirrors what a `puppet:///` source names (`modules/NAME/PATH`, a
    /// file or a directory tree) into `target`, for a run's file
    /// resources to read.
    pub fn mirror(
        &mut self,
        environment: &str,
        source: &str,
        target: &std::path::Path,
    ) -> Result<Synced, AgentError> {
        let mut synced = Synced::default();
        let source: String = source
            .split('/')
            .filter(|part| !part.is_empty())
            .map(encode)
            .collect::<Vec<_>>()
            .join("/");
        pluginsync::sync(self, environment, &source, target, &mut synced)?;
        Ok(synced)
    }

    /// Mirrors into `target` what a static catalog's inlined metadata
    /// (`entries`: one file's, or a recursive source's listing) describes,
    /// fetching what differs at the catalog's `code_id`: no metadata is
    /// asked for.
    pub fn mirror_inlined(
        &mut self,
        environment: &str,
        code_id: &str,
        entries: &[serde_json::Value],
        target: &std::path::Path,
    ) -> Result<Synced, AgentError> {
        let mut synced = Synced::default();
        let content = pluginsync::Content::Static { code_id };
        pluginsync::place(self, environment, entries, target, &mut synced, &content)?;
        Ok(synced)
    }

    /// The node's catalog, compiled with `facts`, as Puppet's JSON.
    pub fn catalog(
        &mut self,
        environment: &str,
        facts: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Vec<u8>, AgentError> {
        let document =
            serde_json::json!({"name": self.settings.certname, "values": facts}).to_string();
        // Escaped once more than the form escapes it, as Puppet's agent
        // sends it.
        let escaped: String = form_urlencoded::byte_serialize(document.as_bytes()).collect();
        let body = form_urlencoded::Serializer::new(String::new())
            .append_pair("facts_format", "application/json")
            .append_pair("facts", &escaped)
            .append_pair("environment", environment)
            .append_pair("configured_environment", environment)
            // A static catalog, when the server's code has a version:
            // its files' metadata comes with it.
            .append_pair("static_catalog", "true")
            .append_pair("checksum_type", "sha256")
            .finish();
        let path = format!(
            "/puppet/v3/catalog/{}?environment={}",
            self.settings.certname,
            encode(environment)
        );
        let answer = self.client.send(
            "POST",
            &path,
            Some("application/x-www-form-urlencoded"),
            body.into_bytes(),
        )?;
        Ok(ok(answer)?.body)
    }

    /// Sends a run's report.
    pub fn send_report(&mut self, environment: &str, report: &[u8]) -> Result<(), AgentError> {
        let path = format!(
            "/puppet/v3/report/{}?environment={}",
            self.settings.certname,
            encode(environment)
        );
        let answer = self
            .client
            .send("PUT", &path, Some("application/json"), report.to_vec())?;
        ok(answer).map(|_| ())
    }

    /// Submits a command to the PuppetDB the settings name (`POST
    /// /pdb/cmd/v1`, the query-string form Puppet's PuppetDB terminus
    /// sends: `deactivate node` as `deactivate_node`), with this agent's
    /// certificate; the UUID PuppetDB gave it.
    pub fn submit_command(
        &mut self,
        (command, version): (&str, u32),
        certname: &str,
        payload: &serde_json::Value,
    ) -> Result<String, AgentError> {
        let path = format!(
            "/pdb/cmd/v1?command={}&version={version}&certname={}",
            encode(&command.replace(' ', "_")),
            encode(certname)
        );
        let answer = self.client.send(
            "POST",
            &path,
            Some("application/json"),
            payload.to_string().into_bytes(),
        )?;
        let answer = ok(answer)?;
        Ok(serde_json::from_slice::<serde_json::Value>(&answer.body)
            .ok()
            .and_then(|v| v.get("uuid")?.as_str().map(str::to_string))
            .unwrap_or_default())
    }
}

impl Agent {
    /// The server's filebucket (`filebucket { ...: path => false }`), on a
    /// connection of its own, so the run can back files up while it holds
    /// the agent.
    pub fn filebucket(&self, environment: &str) -> Result<Bucket, AgentError> {
        let tls = ssl::bootstrap(&self.settings)?;
        Ok(Bucket {
            client: std::sync::Mutex::new(http::Client::new(&self.settings, tls)?),
            environment: environment.to_string(),
        })
    }
}

/// The server's filebucket: contents by their sha256, as Puppet 7's agent
/// keeps them there (`file_bucket_file/sha256/SUM/PATH`).
pub struct Bucket {
    client: std::sync::Mutex<http::Client>,
    environment: String,
}

impl Bucket {
    /// Sends `bytes` (whose sha256 is `sum`), saved from `path`.
    pub fn put(&self, sum: &str, bytes: &[u8], path: &str) -> Result<(), AgentError> {
        let path = format!(
            "/puppet/v3/file_bucket_file/sha256/{sum}/{}?environment={}",
            path.trim_start_matches('/')
                .split('/')
                .map(encode_segment)
                .collect::<Vec<_>>()
                .join("/"),
            encode(&self.environment)
        );
        let mut client = self.client.lock().unwrap_or_else(|e| e.into_inner());
        let answer = client.send(
            "PUT",
            &path,
            Some("application/octet-stream"),
            bytes.to_vec(),
        )?;
        ok(answer).map(|_| ())
    }

    /// The contents the server keeps under `sum`.
    pub fn get(&self, sum: &str) -> Result<Vec<u8>, AgentError> {
        let path = format!(
            "/puppet/v3/file_bucket_file/sha256/{sum}?environment={}",
            encode(&self.environment)
        );
        let mut client = self.client.lock().unwrap_or_else(|e| e.into_inner());
        let answer = client.send("GET", &path, None, Vec::new())?;
        Ok(ok(answer)?.body)
    }
}

/// A path segment with everything but unreserved characters escaped (a
/// blank as `%20`: a path has no `+` for it, as a query has).
pub(crate) fn encode_segment(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The answer, or the server's error.
fn ok(answer: http::Answer) -> Result<http::Answer, AgentError> {
    if (200..300).contains(&answer.status) {
        Ok(answer)
    } else {
        Err(AgentError::Server {
            status: answer.status,
            message: answer.message(),
        })
    }
}

pub(crate) fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
