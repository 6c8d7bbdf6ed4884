//! `marionette-server-load`: simulated agents asking a Puppet server for
//! catalogs over HTTPS, for load tests and benchmarks against
//! `marionette server` or Puppet's own server. It stops by itself after
//! the requests asked for and prints catalogs per second, the median and
//! 99th percentile latency, failures, and (with `--pid`) the server's
//! peak resident memory.
//!
//! ```text
//! marionette-server-load --host localhost --port 8140 --ca CA.pem \
//!     --cert AGENT.pem --key AGENT-KEY.pem --certname AGENT \
//!     --facts FACTS.json [--requests 2000] [--clients 100] [--pid PID]
//! ```
//!
//! Every request is a POST of the facts form, as Puppet's agent sends it,
//! for the certificate's own node; each client keeps its connection.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};

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
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--host" => options.host = value()?,
            "--port" => options.port = value()?.parse().map_err(|_| "--port: a number")?,
            "--ca" => options.ca = value()?,
            "--cert" => options.cert = value()?,
            "--key" => options.key = value()?,
            "--certname" => options.certname = value()?,
            "--facts" => options.facts = value()?,
            "--environment" => options.environment = value()?,
            "--requests" => {
                options.requests = value()?.parse().map_err(|_| "--requests: a number")?
            }
            "--clients" => options.clients = value()?.parse().map_err(|_| "--clients: a number")?,
            "--pid" => options.pid = Some(value()?.parse().map_err(|_| "--pid: a number")?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    for (name, value) in [
        ("--ca", &options.ca),
        ("--cert", &options.cert),
        ("--key", &options.key),
        ("--certname", &options.certname),
        ("--facts", &options.facts),
    ] {
        if value.is_empty() {
            return Err(format!("{name} is required"));
        }
    }
    if options.clients == 0 {
        return Err("--clients must be at least 1".into());
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
    let facts_text = String::from_utf8_lossy(&read(&options.facts)?).into_owned();
    let mut facts: serde_json::Value =
        serde_json::from_str(&facts_text).map_err(|e| format!("{}: {e}", options.facts))?;
    // What Puppet's agent adds to Facter's facts before it sends them.
    if let Some(values) = facts.as_object_mut() {
        values.insert("clientcert".into(), options.certname.clone().into());
        values.insert("clientversion".into(), "7.23.0".into());
        values.insert("clientnoop".into(), false.into());
    }
    // Puppet's facts document, escaped twice, as the agent sends it.
    let document = serde_json::json!({"name": options.certname, "values": facts}).to_string();
    let escaped: String = form_urlencoded::byte_serialize(document.as_bytes()).collect();
    let body: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("facts_format", "application/json")
        .append_pair("facts", &escaped)
        .append_pair("environment", &options.environment)
        .append_pair("transaction_uuid", "00000000-0000-0000-0000-000000000000")
        .finish();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
        connector: tokio_rustls::TlsConnector::from(Arc::new(tls)),
        server_name: ServerName::try_from(options.host.clone()).map_err(|e| e.to_string())?,
        address: format!("{}:{}", options.host, options.port),
        path: format!(
            "/puppet/v3/catalog/{}?environment={}",
            options.certname, options.environment
        ),
        host: options.host.clone(),
        body: Bytes::from(body),
        left: AtomicUsize::new(options.requests),
        failures: AtomicUsize::new(0),
        first_failure: std::sync::Mutex::new(None),
    });
    let started = Instant::now();
    let latencies = runtime.block_on(async {
        let workers: Vec<_> = (0..options.clients)
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
    let mut latencies = latencies;
    latencies.sort();
    let percentile = |p: f64| -> Duration {
        if latencies.is_empty() {
            return Duration::ZERO;
        }
        let index = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[index.min(latencies.len() - 1)]
    };
    let failures = shared.failures.load(Ordering::Relaxed);
    println!(
        "requests {}  clients {}  failures {}  elapsed {:.2} s",
        latencies.len() + failures,
        options.clients,
        failures,
        elapsed.as_secs_f64()
    );
    println!(
        "catalogs/s {:.1}  p50 {:.1} ms  p99 {:.1} ms",
        latencies.len() as f64 / elapsed.as_secs_f64(),
        percentile(0.5).as_secs_f64() * 1000.0,
        percentile(0.99).as_secs_f64() * 1000.0
    );
    if let Some(pid) = options.pid {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let peak = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        println!("server peak memory {peak}");
    }
    if let Some(first) = shared
        .first_failure
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
    {
        println!("first failure: {first}");
    }
    Ok(failures == 0)
}

struct Shared {
    connector: tokio_rustls::TlsConnector,
    server_name: ServerName<'static>,
    address: String,
    host: String,
    path: String,
    body: Bytes,
    left: AtomicUsize,
    failures: AtomicUsize,
    first_failure: std::sync::Mutex<Option<String>>,
}

impl Shared {
    /// Takes one request to make, while some are left.
    fn take(&self) -> bool {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    fn failed(&self, why: String) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_failure.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(why);
    }
}

/// One simulated agent: a kept connection, requests one after another.
async fn client(shared: Arc<Shared>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut sender: Option<hyper::client::conn::http1::SendRequest<Full<Bytes>>> = None;
    while shared.take() {
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
        let request = hyper::Request::post(&shared.path)
            .header("Host", &shared.host)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .header("Accept-Encoding", "gzip")
            .body(Full::new(shared.body.clone()));
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
                    shared.failed(format!("{status}: {text}"));
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
