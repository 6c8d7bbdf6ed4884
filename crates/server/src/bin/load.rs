//! `marionette-server-load`: simulated agents asking a Puppet server for
//! catalogs over HTTPS, or simulated Puppet servers feeding a PuppetDB
//! and Puppetboard reading it, for load tests and benchmarks against
//! `marionette server`, Puppet's own server or PuppetDB. It stops by
//! itself after the requests asked for and prints requests per second,
//! the median and 99th percentile latency, failures, and (with `--pid`)
//! the server's peak resident memory.
//!
//! ```text
//! marionette-server-load --host localhost --port 8140 --ca CA.pem \
//!     --cert AGENT.pem --key AGENT-KEY.pem --certname AGENT \
//!     --facts FACTS.json [--requests 2000] [--clients 100] [--pid PID]
//! marionette-server-load --puppetdb NODES [--resources 50] [--queries 50] \
//!     --host localhost --port 8081 --ca CA.pem --cert C.pem --key K.pem \
//!     [--facts FACTS.json] [--clients 100] [--query-clients 1,4] [--pid PID]
//! ```
//!
//! Catalogs: every request is a POST of the facts form, as Puppet's agent
//! sends it, for the certificate's own node; each client keeps its
//! connection.
//!
//! PuppetDB (`--puppetdb NODES`): each node's `replace facts` (v5),
//! `replace catalog` (v9, `--resources` resources, one of them exported)
//! and `store report` (v8, one event in ten reports changed) are POSTed to
//! `/pdb/cmd/v1`, as puppetserver's PuppetDB terminus sends them; then
//! Puppetboard's queries are asked `--queries` times each, by each number
//! of users at once that `--query-clients` lists (one user alone, a page
//! at a time, then several at once), and each is timed on its own.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{Value, json};

struct Options {
    host: String,
    port: u16,
    ca: String,
    cert: String,
    key: String,
    certname: String,
    facts: String,
    environment: String,
    requests: usize,
    clients: usize,
    pid: Option<u32>,
    /// The nodes of a PuppetDB load, instead of catalog requests.
    puppetdb: Option<usize>,
    resources: usize,
    queries: usize,
    /// Puppetboard's users asking at once, one number a round of queries.
    query_clients: Vec<usize>,
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        host: "localhost".into(),
        port: 8140,
        ca: String::new(),
        cert: String::new(),
        key: String::new(),
        certname: String::new(),
        facts: String::new(),
        environment: "production".into(),
        requests: 2000,
        clients: 100,
        pid: None,
        puppetdb: None,
        resources: 50,
        queries: 50,
        query_clients: vec![1, 4],
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let number = |text: String, name: &str| -> Result<usize, String> {
            text.parse().map_err(|_| format!("{name}: a number"))
        };
        match flag.as_str() {
            "--host" => options.host = value()?,
            "--port" => options.port = value()?.parse().map_err(|_| "--port: a number")?,
            "--ca" => options.ca = value()?,
            "--cert" => options.cert = value()?,
            "--key" => options.key = value()?,
            "--certname" => options.certname = value()?,
            "--facts" => options.facts = value()?,
            "--environment" => options.environment = value()?,
            "--requests" => options.requests = number(value()?, "--requests")?,
            "--clients" => options.clients = number(value()?, "--clients")?,
            "--pid" => options.pid = Some(value()?.parse().map_err(|_| "--pid: a number")?),
            "--puppetdb" => options.puppetdb = Some(number(value()?, "--puppetdb")?),
            "--resources" => options.resources = number(value()?, "--resources")?,
            "--queries" => options.queries = number(value()?, "--queries")?,
            "--query-clients" => {
                options.query_clients = value()?
                    .split(',')
                    .map(|n| number(n.trim().to_string(), "--query-clients"))
                    .collect::<Result<_, _>>()?
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    let mut required = vec![
        ("--ca", &options.ca),
        ("--cert", &options.cert),
        ("--key", &options.key),
    ];
    if options.puppetdb.is_none() {
        required.push(("--certname", &options.certname));
        required.push(("--facts", &options.facts));
    }
    for (name, value) in required {
        if value.is_empty() {
            return Err(format!("{name} is required"));
        }
    }
    if options.clients == 0 || options.query_clients.contains(&0) {
        return Err("--clients and each of --query-clients must be at least 1".into());
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("marionette-server-load: {message}");
            return ExitCode::from(1);
        }
    };
    match run(options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("marionette-server-load: {message}");
            ExitCode::FAILURE
        }
    }
}

/// What the clients ask, by the request's number.
enum Work {
    /// The same catalog request every time.
    Catalog { path: String, body: Bytes },
    /// Three commands per node: its facts, catalog and report.
    Commands {
        facts: serde_json::Map<String, Value>,
        resources: usize,
        environment: String,
    },
    /// One query, again and again.
    Query { path: String },
}

/// One request: method, path, content type and body.
struct Asked {
    post: bool,
    path: String,
    content_type: &'static str,
    body: Bytes,
}

impl Work {
    fn request(&self, index: usize) -> Asked {
        match self {
            Work::Catalog { path, body } => Asked {
                post: true,
                path: path.clone(),
                content_type: "application/x-www-form-urlencoded",
                body: body.clone(),
            },
            Work::Query { path } => Asked {
                post: false,
                path: path.clone(),
                content_type: "application/json",
                body: Bytes::new(),
            },
            Work::Commands {
                facts,
                resources,
                environment,
            } => {
                let node = node_name(index / 3);
                let (command, version, payload) = match index % 3 {
                    0 => ("replace_facts", 5, facts_command(&node, facts, environment)),
                    1 => (
                        "replace_catalog",
                        9,
                        catalog_command(&node, *resources, environment),
                    ),
                    _ => (
                        "store_report",
                        8,
                        report_command(&node, index / 3, environment),
                    ),
                };
                Asked {
                    post: true,
                    path: format!(
                        "/pdb/cmd/v1?command={command}&version={version}&certname={node}&producer-timestamp={}",
                        payload["producer_timestamp"].as_str().unwrap_or_default()
                    ),
                    content_type: "application/json",
                    body: Bytes::from(payload.to_string()),
                }
            }
        }
    }
}

fn node_name(n: usize) -> String {
    format!("mrtest-load-{n:05}.example.com")
}

/// Now, as PuppetDB's commands write times.
fn now() -> String {
    marionette_storage::meta::server_time()["server_time"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A node's facts: the given ones (a Debian machine's) with its own
/// names, and a fact that sorts the fleet into ten roles.
fn facts_command(node: &str, facts: &serde_json::Map<String, Value>, environment: &str) -> Value {
    let mut values = facts.clone();
    let short = node.split('.').next().unwrap_or(node);
    values.insert("fqdn".into(), json!(node));
    values.insert("hostname".into(), json!(short));
    values.insert("clientcert".into(), json!(node));
    let number: usize = short
        .rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    values.insert("mrtest_role".into(), json!(format!("role{}", number % 10)));
    values.insert(
        "trusted".into(),
        json!({"authenticated": "remote", "certname": node, "domain": "example.com",
               "extensions": {}, "hostname": short}),
    );
    json!({
        "certname": node,
        "environment": environment,
        "producer_timestamp": now(),
        "producer": "mrtest-load-server",
        "values": values,
    })
}

/// A node's catalog: `resources` files in a class, and an `sshkey` it
/// exports, with their containment edges.
fn catalog_command(node: &str, resources: usize, environment: &str) -> Value {
    let mut list = vec![
        json!({"type": "Stage", "title": "main", "exported": false, "tags": ["stage"],
               "parameters": {}}),
        json!({"type": "Class", "title": "Mrtest::Role", "exported": false,
               "tags": ["class", "mrtest::role", "mrtest", "role"], "parameters": {}}),
        json!({"type": "Sshkey", "title": node, "exported": true,
               "tags": ["sshkey", "class", "mrtest::role"],
               "file": "/etc/puppetlabs/code/modules/mrtest/manifests/role.pp", "line": 3,
               "parameters": {"type": "ssh-ed25519", "key": "AAAAC3NzaC1lZDI1NTE5AAAAIMrtestkey"}}),
    ];
    let mut edges = vec![json!({"source": {"type": "Stage", "title": "main"},
                                "target": {"type": "Class", "title": "Mrtest::Role"},
                                "relationship": "contains"})];
    for i in 0..resources {
        let path = format!("/etc/mrtest/file-{i:03}.conf");
        list.push(json!({
            "type": "File", "title": path, "exported": false,
            "tags": ["file", "class", "mrtest::role", "mrtest", "role"],
            "file": "/etc/puppetlabs/code/modules/mrtest/manifests/role.pp", "line": 10 + i,
            "parameters": {"ensure": "file", "owner": "root", "mode": "0644",
                           "content": format!("setting {i} = on\n")},
        }));
        edges.push(json!({"source": {"type": "Class", "title": "Mrtest::Role"},
                          "target": {"type": "File", "title": path},
                          "relationship": "contains"}));
    }
    json!({
        "certname": node,
        "version": "1764400000",
        "environment": environment,
        "transaction_uuid": "00000000-0000-0000-0000-000000000000",
        "catalog_uuid": "00000000-0000-0000-0000-000000000001",
        "producer_timestamp": now(),
        "producer": "mrtest-load-server",
        "code_id": null,
        "job_id": null,
        "resources": list,
        "edges": edges,
    })
}

/// A node's report: unchanged, or (one node in ten) one file changed.
fn report_command(node: &str, number: usize, environment: &str) -> Value {
    let time = now();
    let changed = number.is_multiple_of(10);
    let resources = if changed {
        json!([{
            "resource_type": "File", "resource_title": "/etc/mrtest/file-000.conf",
            "file": "/etc/puppetlabs/code/modules/mrtest/manifests/role.pp", "line": 10,
            "skipped": false, "corrective_change": false, "timestamp": time,
            "containment_path": ["Stage[main]", "Mrtest::Role", "File[/etc/mrtest/file-000.conf]"],
            "events": [{"status": "success", "timestamp": time, "property": "content",
                        "name": "content_changed", "new_value": "{sha256}1", "old_value": "{sha256}0",
                        "corrective_change": false,
                        "message": "content changed '{sha256}0' to '{sha256}1'"}],
        }])
    } else {
        json!([])
    };
    json!({
        "certname": node,
        "environment": environment,
        "puppet_version": "7.23.0",
        "report_format": 12,
        "configuration_version": "1764400000",
        "start_time": time,
        "end_time": time,
        "producer_timestamp": time,
        "producer": "mrtest-load-server",
        "transaction_uuid": "00000000-0000-0000-0000-000000000000",
        "catalog_uuid": "00000000-0000-0000-0000-000000000001",
        "code_id": null,
        "job_id": null,
        "cached_catalog_status": "not_used",
        "status": if changed { "changed" } else { "unchanged" },
        "noop": false,
        "noop_pending": false,
        "corrective_change": false,
        "type": "agent",
        "logs": [{"file": null, "line": null, "level": "notice", "message": "Applied catalog in 0.50 seconds",
                  "source": "Puppet", "tags": ["notice"], "time": time}],
        "metrics": [
            {"category": "resources", "name": "total", "value": 53},
            {"category": "resources", "name": "changed", "value": i32::from(changed)},
            {"category": "time", "name": "total", "value": 0.5},
            {"category": "events", "name": "total", "value": i32::from(changed)},
        ],
        "resources": resources,
    })
}

/// Puppetboard's queries at scale: its overview (nodes, their latest
/// reports' event counts, the population), a fact's values across the
/// fleet, the fact names, and one node's facts, resources and reports.
fn puppetboard_queries() -> Vec<(&'static str, String)> {
    let encode =
        |text: &str| -> String { form_urlencoded::byte_serialize(text.as_bytes()).collect() };
    let node = node_name(1);
    vec![
        ("nodes", "/pdb/query/v4/nodes".to_string()),
        (
            "event counts of the latest reports",
            format!(
                "/pdb/query/v4/event-counts?query={}&summarize_by=certname",
                encode(r#"["=", "latest_report?", true]"#)
            ),
        ),
        (
            "population",
            "/metrics/v2/read/puppetlabs.puppetdb.population:name=num-nodes".to_string(),
        ),
        (
            "a fact's values",
            "/pdb/query/v4/facts/mrtest_role".to_string(),
        ),
        ("fact names", "/pdb/query/v4/fact-names".to_string()),
        (
            "a node's facts",
            format!(
                "/pdb/query/v4/facts?query={}",
                encode(&format!(r#"["=", "certname", "{node}"]"#))
            ),
        ),
        (
            "a node's resources",
            format!(
                "/pdb/query/v4/resources?query={}",
                encode(&format!(r#"["=", "certname", "{node}"]"#))
            ),
        ),
        (
            "a node's reports",
            format!(
                "/pdb/query/v4/reports?query={}&order_by={}&limit=10",
                encode(&format!(r#"["=", "certname", "{node}"]"#)),
                encode(r#"[{"field": "end_time", "order": "desc"}]"#)
            ),
        ),
        (
            "exported sshkeys",
            format!(
                "/pdb/query/v4/resources?query={}",
                encode(r#"["and", ["=", "type", "Sshkey"], ["=", "exported", true]]"#)
            ),
        ),
    ]
}

fn run(options: Options) -> Result<bool, String> {
    let read = |path: &str| std::fs::read(path).map_err(|e| format!("{path}: {e}"));
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&read(&options.ca)?) {
        roots
            .add(cert.map_err(|e| format!("{}: {e:?}", options.ca))?)
            .map_err(|e| e.to_string())?;
    }
    let chain = CertificateDer::pem_slice_iter(&read(&options.cert)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e:?}", options.cert))?;
    let key = PrivateKeyDer::from_pem_slice(&read(&options.key)?)
        .map_err(|e| format!("{}: {e:?}", options.key))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_client_auth_cert(chain, key)
        .map_err(|e| e.to_string())?;
    let mut facts: Value = if options.facts.is_empty() {
        json!({"kernel": "Linux", "os": {"family": "Debian", "name": "Debian",
               "release": {"full": "12.8", "major": "12"}}})
    } else {
        let text = String::from_utf8_lossy(&read(&options.facts)?).into_owned();
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", options.facts))?
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(tls));
    let server_name = ServerName::try_from(options.host.clone()).map_err(|e| e.to_string())?;
    let address = format!("{}:{}", options.host, options.port);
    // Runs `requests` requests of `work` from the clients; what was timed
    // and the first failure.
    let drive = |work: Work,
                 requests: usize,
                 clients: usize|
     -> (Vec<Duration>, usize, Duration, Option<String>) {
        let shared = Arc::new(Shared {
            connector: connector.clone(),
            server_name: server_name.clone(),
            address: address.clone(),
            host: options.host.clone(),
            work,
            total: requests,
            left: AtomicUsize::new(requests),
            failures: AtomicUsize::new(0),
            first_failure: std::sync::Mutex::new(None),
        });
        let started = Instant::now();
        let mut latencies = runtime.block_on(async {
            let workers: Vec<_> = (0..clients.min(requests.max(1)))
                .map(|_| tokio::spawn(client(shared.clone())))
                .collect();
            let mut all = Vec::new();
            for worker in workers {
                if let Ok(mut latencies) = worker.await {
                    all.append(&mut latencies);
                }
            }
            all
        });
        let elapsed = started.elapsed();
        latencies.sort();
        let first = shared
            .first_failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (
            latencies,
            shared.failures.load(Ordering::Relaxed),
            elapsed,
            first,
        )
    };
    let mut all_failures = 0;
    let mut first_failure = None;
    if let Some(nodes) = options.puppetdb {
        let Some(values) = facts.as_object().cloned() else {
            return Err(format!("{}: not a JSON object of facts", options.facts));
        };
        let (latencies, failures, elapsed, first) = drive(
            Work::Commands {
                facts: values,
                resources: options.resources,
                environment: options.environment.clone(),
            },
            nodes * 3,
            options.clients,
        );
        println!(
            "commands {}  nodes {nodes}  clients {}  failures {failures}  elapsed {:.2} s",
            latencies.len() + failures,
            options.clients,
            elapsed.as_secs_f64()
        );
        print_rate("commands", &latencies, elapsed);
        all_failures += failures;
        first_failure = first_failure.or(first);
        // `--queries 0` feeds the store and asks nothing.
        let rounds = if options.queries == 0 {
            &[][..]
        } else {
            &options.query_clients[..]
        };
        for (name, path) in puppetboard_queries() {
            for &users in rounds {
                let (latencies, failures, _, first) =
                    drive(Work::Query { path: path.clone() }, options.queries, users);
                println!(
                    "query {name} ({users} at once): {} asked, p50 {:.1} ms  p99 {:.1} ms",
                    latencies.len() + failures,
                    millis(percentile(&latencies, 0.5)),
                    millis(percentile(&latencies, 0.99))
                );
                all_failures += failures;
                first_failure = first_failure.or(first);
            }
        }
    } else {
        // What Puppet's agent adds to Facter's facts before it sends them.
        if let Some(values) = facts.as_object_mut() {
            values.insert("clientcert".into(), options.certname.clone().into());
            values.insert("clientversion".into(), "7.23.0".into());
            values.insert("clientnoop".into(), false.into());
        }
        // Puppet's facts document, escaped twice, as the agent sends it.
        let document = json!({"name": options.certname, "values": facts}).to_string();
        let escaped: String = form_urlencoded::byte_serialize(document.as_bytes()).collect();
        let body: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("facts_format", "application/json")
            .append_pair("facts", &escaped)
            .append_pair("environment", &options.environment)
            .append_pair("transaction_uuid", "00000000-0000-0000-0000-000000000000")
            .finish();
        let (latencies, failures, elapsed, first) = drive(
            Work::Catalog {
                path: format!(
                    "/puppet/v3/catalog/{}?environment={}",
                    options.certname, options.environment
                ),
                body: Bytes::from(body),
            },
            options.requests,
            options.clients,
        );
        println!(
            "requests {}  clients {}  failures {failures}  elapsed {:.2} s",
            latencies.len() + failures,
            options.clients,
            elapsed.as_secs_f64()
        );
        print_rate("catalogs", &latencies, elapsed);
        all_failures += failures;
        first_failure = first;
    }
    if let Some(pid) = options.pid {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let peak = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        println!("server peak memory {peak}");
    }
    if let Some(first) = first_failure {
        println!("first failure: {first}");
    }
    Ok(all_failures == 0)
}

/// `WHAT/s N  p50 N ms  p99 N ms`, from the sorted latencies of what
/// succeeded in `elapsed`.
fn print_rate(what: &str, latencies: &[Duration], elapsed: Duration) {
    println!(
        "{what}/s {:.1}  p50 {:.1} ms  p99 {:.1} ms",
        latencies.len() as f64 / elapsed.as_secs_f64(),
        millis(percentile(latencies, 0.5)),
        millis(percentile(latencies, 0.99))
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

struct Shared {
    connector: tokio_rustls::TlsConnector,
    server_name: ServerName<'static>,
    address: String,
    host: String,
    work: Work,
    total: usize,
    left: AtomicUsize,
    failures: AtomicUsize,
    first_failure: std::sync::Mutex<Option<String>>,
}

impl Shared {
    /// Takes one request to make, while some are left: its number.
    fn take(&self) -> Option<usize> {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .ok()
            .map(|left| self.total - left)
    }

    fn failed(&self, why: String) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_failure.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(why);
    }
}

/// One simulated client: a kept connection, requests one after another.
async fn client(shared: Arc<Shared>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut sender: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>> = None;
    while let Some(index) = shared.take() {
        if sender.as_ref().is_none_or(|s| s.is_closed()) {
            sender = match connect(&shared).await {
                Ok(s) => Some(s),
                Err(why) => {
                    shared.failed(why);
                    continue;
                }
            };
        }
        let Some(open) = sender.as_mut() else {
            continue;
        };
        let asked = shared.work.request(index);
        let request = if asked.post {
            hyper::Request::post(&asked.path)
        } else {
            hyper::Request::get(&asked.path)
        }
        .header("Host", &shared.host)
        .header("Content-Type", asked.content_type)
        .header("Accept", "application/json")
        .header("Accept-Encoding", "gzip")
        .body(Full::new(asked.body));
        let Ok(request) = request else {
            shared.failed("could not build the request".into());
            continue;
        };
        let started = Instant::now();
        match open.send_request(request).await {
            Ok(response) => {
                let status = response.status();
                let body = response.into_body().collect().await;
                if status.is_success() && body.is_ok() {
                    latencies.push(started.elapsed());
                } else {
                    let text: String = body
                        .map(|b| {
                            String::from_utf8_lossy(&b.to_bytes())
                                .chars()
                                .take(300)
                                .collect()
                        })
                        .unwrap_or_default();
                    shared.failed(format!(
                        "{} {}: {status}: {text}",
                        if asked.post { "POST" } else { "GET" },
                        asked.path
                    ));
                }
            }
            Err(e) => {
                shared.failed(e.to_string());
                sender = None;
            }
        }
    }
    latencies
}

async fn connect(
    shared: &Shared,
) -> Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>, String> {
    let tcp = tokio::net::TcpStream::connect(&shared.address)
        .await
        .map_err(|e| format!("connect to {}: {e}", shared.address))?;
    let _ = tcp.set_nodelay(true);
    let tls = shared
        .connector
        .connect(shared.server_name.clone(), tcp)
        .await
        .map_err(|e| format!("TLS: {e}"))?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    tokio::spawn(connection);
    Ok(sender)
}
