//! The server against clients that misbehave or ask for what they may not
//! have: CA administration without the right certificate, a certificate
//! revoked by another process, silent and half-open connections, more
//! connections than the cap, bodies too large or never sent, and facts
//! uploads that are not facts. Each client here speaks raw HTTP over TLS,
//! so the test controls every byte and every pause.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Counting, settings};
use marionette_server::{Config, Limits, LogTarget, Server};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};

mod common;

/// A server in a temporary directory, with certificates for `names`
/// (`NAME.pem`, `NAME-key.pem`; `mrtest-cli` carries `pp_cli_auth`).
struct Fixture {
    dir: tempfile::TempDir,
    server: Option<Server>,
    compiler: Arc<Counting>,
}

impl Fixture {
    fn start(limits: Limits, names: &[&str]) -> Fixture {
        Fixture::start_with(limits, names, |_| {})
    }

    /// A server whose configuration `edit` changes first.
    fn start_with(limits: Limits, names: &[&str], edit: impl FnOnce(&mut Config)) -> Fixture {
        let dir = tempfile::Builder::new()
            .prefix("mrtest-abuse")
            .tempdir()
            .unwrap();
        let ca =
            marionette_ca::CertificateAuthority::open_or_create(&dir.path().join("ca"), settings())
                .unwrap();
        for name in names {
            let issued = ca
                .issue_host_certificate(name, &[], *name == "mrtest-cli")
                .unwrap();
            issued
                .write_to(
                    &dir.path().join(format!("{name}.pem")),
                    &dir.path().join(format!("{name}-key.pem")),
                )
                .unwrap();
        }
        drop(ca);
        let compiler = Arc::new(Counting::default());
        let mut config = Config {
            bind: "127.0.0.1:0".parse().unwrap(),
            certname: "localhost".into(),
            dns_alt_names: vec!["localhost".into()],
            cadir: dir.path().join("ca"),
            ssldir: dir.path().join("ssl"),
            vardir: dir.path().join("var"),
            ca: settings(),
            log_file: Some(LogTarget::File(dir.path().join("server.log"))),
            access_log: Some(LogTarget::File(dir.path().join("access.log"))),
            audit_log: Some(LogTarget::File(dir.path().join("audit.log"))),
            report_processors: Vec::new(),
            storage: None,
            reports: vec!["store".into()],
            ca_admins: vec!["mrtest-admin".into()],
            limits,
            puppetdb: Default::default(),
            versioned_code: Default::default(),
        };
        edit(&mut config);
        let server = Server::start(config, compiler.clone()).expect("the server starts");
        Fixture {
            dir,
            server: Some(server),
            compiler,
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn address(&self) -> SocketAddr {
        self.server.as_ref().unwrap().address()
    }

    /// A TLS connection, as `name` or with no certificate.
    fn connect(&self, name: Option<&str>) -> std::io::Result<Tls> {
        let mut roots = rustls::RootCertStore::empty();
        let ca = std::fs::read(self.path().join("ca/ca_crt.pem")).unwrap();
        for cert in CertificateDer::pem_slice_iter(&ca) {
            roots.add(cert.unwrap()).unwrap();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots);
        let config = match name {
            Some(name) => {
                let certs = CertificateDer::pem_file_iter(self.path().join(format!("{name}.pem")))
                    .unwrap()
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap();
                let key = PrivateKeyDer::from_pem_file(self.path().join(format!("{name}-key.pem")))
                    .unwrap();
                builder.with_client_auth_cert(certs, key).unwrap()
            }
            None => builder.with_no_client_auth(),
        };
        let tcp = TcpStream::connect(self.address())?;
        tcp.set_read_timeout(Some(Duration::from_secs(10)))?;
        let connection = rustls::ClientConnection::new(
            Arc::new(config),
            ServerName::try_from("localhost").unwrap(),
        )
        .unwrap();
        let mut tls = rustls::StreamOwned::new(connection, tcp);
        // The handshake, so a refused certificate fails here.
        while tls.conn.is_handshaking() {
            tls.conn.complete_io(&mut tls.sock)?;
        }
        // TLS 1.3 refuses a client certificate after the handshake: a
        // read that is answered proves the server took it.
        Ok(Tls(tls))
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }
}

struct Tls(rustls::StreamOwned<rustls::ClientConnection, TcpStream>);

impl Tls {
    /// Sends a head (and what there is of a body) as written.
    fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write_all(bytes)?;
        self.0.flush()
    }

    /// The status of the next response, reading its head and its body of
    /// `Content-Length` bytes; an error when the connection ends first.
    fn status(&mut self) -> std::io::Result<u16> {
        self.answer(true)
    }

    /// The status of the answer to a `HEAD`, which has no body whatever
    /// its `Content-Length` says.
    fn head_status(&mut self) -> std::io::Result<u16> {
        self.answer(false)
    }

    fn answer(&mut self, with_body: bool) -> std::io::Result<u16> {
        self.response(with_body).map(|(status, _)| status)
    }

    /// A request with no body: the answer's status and body.
    fn fetch(&mut self, method: &str, path: &str) -> std::io::Result<(u16, String)> {
        self.fetch_with_body(method, path, b"")
    }

    fn fetch_with_body(
        &mut self,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> std::io::Result<(u16, String)> {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nUser-Agent: mrtest\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        self.send(&[head.as_bytes(), body].concat())?;
        let (status, body) = self.response(true)?;
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }

    fn response(&mut self, with_body: bool) -> std::io::Result<(u16, Vec<u8>)> {
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match self.0.read(&mut byte)? {
                0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                _ => head.push(byte[0]),
            }
        }
        let head = String::from_utf8_lossy(&head).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map_or(0, |v| v.trim().parse().unwrap());
        let mut body = vec![0u8; if with_body { length } else { 0 }];
        self.0.read_exact(&mut body)?;
        Ok((head[9..12].parse().unwrap(), body))
    }

    /// A request with no body, answered.
    fn get(&mut self, path: &str) -> std::io::Result<u16> {
        self.send(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())?;
        self.status()
    }

    /// Whether the server closed the connection: the read ends rather
    /// than waiting.
    fn closed(&mut self) -> bool {
        let mut byte = [0u8; 1];
        matches!(self.0.read(&mut byte), Ok(0) | Err(_))
    }
}

/// Whether the server closed a plain TCP connection within `within`.
/// One request over plain HTTP, as it is written; the answer's status and
/// body.
fn plain_http(address: SocketAddr, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// Revokes `name`'s certificate through the CA's API; the status.
fn revoke(admin: &mut Tls, name: &str) -> u16 {
    admin
        .fetch_with_body(
            "PUT",
            &format!("/puppet-ca/v1/certificate_status/{name}"),
            br#"{"desired_state":"revoked"}"#,
        )
        .unwrap()
        .0
}

fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

fn quick() -> Limits {
    Limits {
        max_connections: 64,
        handshake_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        max_facts_bytes: 256 * 1024,
        max_report_bytes: 1024 * 1024,
    }
}

#[test]
fn ca_administration_needs_the_right_certificate() {
    let fixture = Fixture::start(
        Limits::default(),
        &["mrtest-agent", "mrtest-cli", "mrtest-admin"],
    );
    let statuses = "/puppet-ca/v1/certificate_statuses/any";
    // From the server's own machine, without a certificate: refused.
    assert_eq!(fixture.connect(None).unwrap().get(statuses).unwrap(), 403);
    assert_eq!(
        fixture
            .connect(Some("mrtest-agent"))
            .unwrap()
            .get(statuses)
            .unwrap(),
        403
    );
    for admin in ["mrtest-cli", "mrtest-admin"] {
        assert_eq!(
            fixture.connect(Some(admin)).unwrap().get(statuses).unwrap(),
            200,
            "{admin}"
        );
    }
    // A change of state without a certificate is refused unread.
    let mut anonymous = fixture.connect(None).unwrap();
    anonymous
        .send(
            b"PUT /puppet-ca/v1/certificate_status/mrtest-agent HTTP/1.1\r\nHost: localhost\r\n\
              Content-Type: application/json\r\nContent-Length: 29\r\n\r\n\
              {\"desired_state\":\"revoked\"}",
        )
        .unwrap();
    assert_eq!(anonymous.status().unwrap(), 403);
    let ca =
        marionette_ca::CertificateAuthority::open_or_create(&fixture.path().join("ca"), settings())
            .unwrap();
    let agent = ca.certificate_status("mrtest-agent").unwrap();
    assert_eq!(agent.state, marionette_ca::CertificateState::Signed);
}

#[test]
fn a_revocation_by_another_process_applies_at_once() {
    let fixture = Fixture::start(Limits::default(), &["mrtest-agent"]);
    let environments = "/puppet/v3/environments";
    let mut kept = fixture.connect(Some("mrtest-agent")).unwrap();
    assert_eq!(kept.get(environments).unwrap(), 200);
    // `marionette ca revoke` works on the CA's files, not through the
    // server.
    let cli =
        marionette_ca::CertificateAuthority::open_or_create(&fixture.path().join("ca"), settings())
            .unwrap();
    cli.revoke("mrtest-agent").unwrap();
    // The connection opened before is refused from its next request.
    assert_eq!(kept.get(environments).unwrap(), 403);
    // A new one fails its handshake (or its first request, with TLS 1.3's
    // late client certificate check).
    let fresh = fixture
        .connect(Some("mrtest-agent"))
        .and_then(|mut tls| tls.get(environments));
    assert!(fresh.is_err(), "{fresh:?}");
}

#[test]
fn silent_connections_are_closed() {
    let fixture = Fixture::start(quick(), &["mrtest-agent"]);
    let started = Instant::now();
    // Half-open: TCP, no handshake.
    let mut idle: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(fixture.address()).unwrap())
        .collect();
    for stream in &mut idle {
        assert!(closed_within(stream, Duration::from_secs(5)));
    }
    // A handshake, then nothing; a request, then a silent keep-alive.
    let mut quiet = fixture.connect(Some("mrtest-agent")).unwrap();
    let mut kept = fixture.connect(Some("mrtest-agent")).unwrap();
    assert_eq!(kept.get("/puppet/v3/environments").unwrap(), 200);
    // A body that stops coming.
    let mut stalled = fixture.connect(Some("mrtest-agent")).unwrap();
    stalled
        .send(
            b"PUT /puppet/v3/report/mrtest-agent HTTP/1.1\r\nHost: localhost\r\n\
              Content-Length: 100\r\n\r\n{\"partial\":",
        )
        .unwrap();
    assert!(quiet.closed());
    assert!(kept.closed());
    assert!(matches!(stalled.status(), Ok(408) | Err(_)));
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn connections_beyond_the_cap_wait_their_turn() {
    let mut limits = quick();
    limits.max_connections = 4;
    let fixture = Fixture::start(limits, &["mrtest-agent"]);
    let held: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(fixture.address()).unwrap())
        .collect();
    // Give the server time to accept the four.
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let mut fifth = fixture.connect(Some("mrtest-agent")).unwrap();
    assert_eq!(fifth.get("/puppet/v3/environments").unwrap(), 200);
    let waited = started.elapsed();
    // Served only once the silent four were dropped at their handshake's
    // timeout (a second after they came).
    assert!(waited >= Duration::from_millis(500), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    drop(held);
}

#[test]
fn bodies_are_refused_on_the_head() {
    let fixture = Fixture::start(quick(), &["mrtest-agent"]);
    // Each head declares far more than it sends: the answer must come
    // without the body, or the read times out.
    let cases: [(Option<&str>, &str, u64, u16); 4] = [
        (None, "PUT /puppet/v3/report/mrtest-agent", 200 << 20, 403),
        (None, "PUT /puppet/v3/nothing-here", 200 << 20, 403),
        (
            None,
            "PUT /puppet-ca/v1/certificate_request/mrtest-big",
            1 << 20,
            413,
        ),
        (
            Some("mrtest-agent"),
            "PUT /puppet/v3/report/mrtest-agent",
            2 << 20,
            413,
        ),
    ];
    for (client, request, length, expected) in cases {
        let mut tls = fixture.connect(client).unwrap();
        tls.send(
            format!("{request} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {length}\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
        let started = Instant::now();
        assert_eq!(tls.status().unwrap(), expected, "{request}");
        // Far sooner than the body could come (it never does): the read
        // would wait for the connection's ten seconds.
        assert!(started.elapsed() < Duration::from_secs(4), "{request}");
    }
    // Without a declared length, the limit stops the read.
    let mut chunked = fixture.connect(None).unwrap();
    chunked
        .send(
            b"PUT /puppet-ca/v1/certificate_request/mrtest-big HTTP/1.1\r\nHost: localhost\r\n\
              Transfer-Encoding: chunked\r\n\r\n",
        )
        .unwrap();
    let chunk = format!("10000\r\n{}\r\n", "A".repeat(0x10000));
    let mut answered = None;
    for _ in 0..4 {
        if chunked.send(chunk.as_bytes()).is_err() {
            break;
        }
        chunked
            .0
            .sock
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        if let Ok(status) = chunked.status() {
            answered = Some(status);
            break;
        }
    }
    assert_eq!(answered, Some(413));
}

#[test]
fn facts_uploads_are_checked_and_kept_once() {
    let fixture = Fixture::start(quick(), &["mrtest-agent"]);
    let put = |body: &[u8]| -> u16 {
        let mut tls = fixture.connect(Some("mrtest-agent")).unwrap();
        let mut request = format!(
            "PUT /puppet/v3/facts/mrtest-agent?environment=production HTTP/1.1\r\nHost: localhost\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        tls.send(&request).unwrap();
        tls.status().unwrap()
    };
    let random: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    assert_eq!(put(&random), 400);
    assert_eq!(put(br#"{"name":"mrtest-other","values":{}}"#), 400);
    assert_eq!(put(br#"{"name":"mrtest-agent","values":[]}"#), 400);
    let facts = |n: u32| format!(r#"{{"name":"mrtest-agent","values":{{"mrtest_run":{n}}}}}"#);
    for n in 0..3 {
        assert_eq!(put(facts(n).as_bytes()), 200);
    }
    let dir: PathBuf = fixture.path().join("var/facts");
    let kept: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(kept, ["mrtest-agent.json"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("mrtest-agent.json")).unwrap(),
        facts(2)
    );
}

/// A client that sends requests and never reads the answers gives up its
/// connection (and its slot) once the server's writes stall for the idle
/// timeout.
#[test]
fn a_client_that_never_reads_is_let_go() {
    let mut limits = quick();
    limits.max_connections = 1;
    let fixture = Fixture::start(limits, &["mrtest-agent"]);
    let mut greedy = fixture.connect(None).unwrap();
    let request = "GET /puppet-ca/v1/certificate/ca HTTP/1.1\r\nHost: localhost\r\n\r\n";
    // Far more answers than the sockets' buffers hold.
    let pipelined = request.repeat(4000);
    greedy
        .0
        .sock
        .set_write_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let _ = greedy.send(pipelined.as_bytes());
    let started = Instant::now();
    let mut next = fixture.connect(Some("mrtest-agent")).unwrap();
    assert_eq!(next.get("/puppet/v3/environments").unwrap(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    drop(greedy);
}

/// The filebucket keeps every path a content came from and the content
/// whole, with uploads at once; a path is answered only once recorded
/// (as the agent asks before it sends); forged paths and diffs are refused.
#[test]
fn the_filebucket_keeps_every_path_and_whole_contents() {
    let fixture = Arc::new(Fixture::start(quick(), &["mrtest-agent"]));
    let content = b"mrtest backed up\n";
    let sum: String = ring::digest::digest(&ring::digest::SHA256, content)
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let put = |fixture: &Fixture, path: &str| bucket_put(fixture, &sum, path, content);
    let head = |path: &str| -> u16 {
        let mut tls = fixture.connect(Some("mrtest-agent")).unwrap();
        tls.send(
            format!(
                "HEAD /puppet/v3/file_bucket_file/sha256/{sum}/{path}?environment=production HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
        tls.head_status().unwrap()
    };
    let uploads: Vec<_> = (0..8)
        .map(|i| {
            let (fixture, sum) = (fixture.clone(), sum.clone());
            std::thread::spawn(move || {
                bucket_put(&fixture, &sum, &format!("etc/mrtest-{i}.conf"), content)
            })
        })
        .collect();
    for upload in uploads {
        assert_eq!(upload.join().unwrap(), 200);
    }
    let slot = sum[..8]
        .chars()
        .fold(fixture.path().join("var/bucket"), |p, c| {
            p.join(c.to_string())
        })
        .join(&sum);
    assert_eq!(std::fs::read(slot.join("contents")).unwrap(), content);
    let mut paths: Vec<String> = std::fs::read_to_string(slot.join("paths"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    paths.sort();
    let expected: Vec<String> = (0..8).map(|i| format!("/etc/mrtest-{i}.conf")).collect();
    assert_eq!(paths, expected);
    assert_eq!(head("etc/mrtest-3.conf"), 200);
    assert_eq!(head("etc/mrtest-other.conf"), 404);
    assert_eq!(put(&fixture, "etc/mrtest-forged%0A/etc/shadow"), 400);
    let mut diff = fixture.connect(Some("mrtest-agent")).unwrap();
    let asked =
        format!("/puppet/v3/file_bucket_file/sha256/{sum}?environment=production&diff_with={sum}");
    assert_eq!(diff.get(&asked).unwrap(), 400);
}

/// A filebucket upload of `content` under `sum`, from `path`, as the node.
fn bucket_put(fixture: &Fixture, sum: &str, path: &str, content: &[u8]) -> u16 {
    let mut tls = fixture.connect(Some("mrtest-agent")).unwrap();
    let mut request = format!(
        "PUT /puppet/v3/file_bucket_file/sha256/{sum}/{path}?environment=production HTTP/1.1\r\nHost: localhost\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        content.len()
    )
    .into_bytes();
    request.extend_from_slice(content);
    tls.send(&request).unwrap();
    tls.status().unwrap()
}

#[test]
fn operators_see_status_metrics_and_logs_and_flush_environments() {
    let fixture = Fixture::start(quick(), &["mrtest-node", "mrtest-cli"]);
    // A load balancer's health check and Prometheus need no certificate.
    let mut anonymous = fixture.connect(None).unwrap();
    assert_eq!(
        anonymous.fetch("GET", "/status/v1/simple").unwrap(),
        (200, "running".to_string())
    );
    let mut node = fixture.connect(Some("mrtest-node")).unwrap();
    assert_eq!(node.get("/puppet/v3/environments").unwrap(), 200);
    assert_eq!(node.get("/puppet/v3/no-such-thing").unwrap(), 404);
    let (status, services) = anonymous
        .fetch("GET", "/status/v1/services?level=debug")
        .unwrap();
    assert_eq!(status, 200, "{services}");
    let services: serde_json::Value = serde_json::from_str(&services).unwrap();
    assert_eq!(services["server"]["state"], "running");
    assert_eq!(services["server"]["detail_level"], "debug");
    // The two nodes' and the server's own.
    assert_eq!(services["ca"]["status"]["signed"], 3, "{services}");
    assert_eq!(
        anonymous
            .fetch("GET", "/status/v1/services?level=loud")
            .unwrap()
            .0,
        400
    );
    let (status, metrics) = anonymous.fetch("GET", "/metrics").unwrap();
    assert_eq!(status, 200);
    for line in [
        "marionette_http_requests_total{endpoint=\"environments\",status=\"200\"} 1",
        "marionette_http_requests_total{endpoint=\"other\",status=\"404\"} 1",
        "marionette_http_requests_total{endpoint=\"status\",status=\"200\"} 2",
        "marionette_ca_certificates{state=\"signed\"} 3",
        "marionette_connections_open 2",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} is not in\n{metrics}"
        );
    }
    // Prometheus's own parser (its Python client's) reads every family.
    let families = prometheus_families(&metrics);
    for family in [
        "marionette_http_requests",
        "marionette_ca_certificates",
        "marionette_connections_open",
    ] {
        assert!(
            families.contains(family),
            "{family} not parsed: {families:?}"
        );
    }

    // Flushing environments is a CA administrator's business.
    let flushes = || {
        fixture
            .compiler
            .flushes
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    assert_eq!(
        node.fetch("DELETE", "/puppet-admin-api/v1/environment-cache")
            .unwrap()
            .0,
        403
    );
    let mut admin = fixture.connect(Some("mrtest-cli")).unwrap();
    assert_eq!(
        admin
            .fetch(
                "DELETE",
                "/puppet-admin-api/v1/environment-cache?environment=production"
            )
            .unwrap()
            .0,
        204
    );
    assert_eq!(flushes(), 1);
    assert_eq!(
        admin
            .fetch("DELETE", "/puppet-admin-api/v1/jruby-pool")
            .unwrap()
            .0,
        204
    );
    assert_eq!(flushes(), 2);

    // The CA's actions leave audit lines: who, from where, what, which.
    assert_eq!(revoke(&mut admin, "mrtest-node"), 204);
    let audit = std::fs::read_to_string(fixture.path().join("audit.log")).unwrap();
    assert!(
        audit
            .lines()
            .any(|l| l.ends_with(" CA: mrtest-cli from 127.0.0.1 revoked mrtest-node")),
        "{audit}"
    );

    // One access line per request, in puppetserver's format, with the
    // client's certificate name; SIGHUP starts a new file after a
    // rotation.
    let access = fixture.path().join("access.log");
    let lines = std::fs::read_to_string(&access).unwrap();
    assert!(
        lines
            .lines()
            .any(|l| l.starts_with("127.0.0.1 - mrtest-node [")
                && l.contains("] \"GET /puppet/v3/environments HTTP/1.1\" 200 ")
                && l.contains(" \"-\" \"-\" ")),
        "{lines}"
    );
    assert!(
        lines.lines().any(
            |l| l.starts_with("127.0.0.1 - - [") && l.contains("\"GET /metrics HTTP/1.1\" 200")
        ),
        "{lines}"
    );
    let rotated = fixture.path().join("access.log.1");
    std::fs::rename(&access, &rotated).unwrap();
    // The server's handler takes the test process's own SIGHUP.
    let hangup = std::process::Command::new("kill")
        .args(["-HUP", &std::process::id().to_string()])
        .status()
        .unwrap();
    assert!(hangup.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !access.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(anonymous.get("/status/v1/simple").unwrap(), 200);
    let fresh = std::fs::read_to_string(&access).unwrap();
    assert!(
        fresh.contains("\"GET /status/v1/simple HTTP/1.1\" 200"),
        "{fresh}"
    );
    let old = std::fs::read_to_string(&rotated).unwrap();
    assert!(old.starts_with(&lines), "the rotated file lost lines");
    assert!(!fresh.contains("GET /metrics"), "{fresh}");
}

/// The server's three logs sent to the machine's log services instead of
/// files: its own log and the CA's audit lines to syslog (the audit as a
/// security message), the access log to the journal, each under its own
/// name. The services are sockets the test binds, named as `syslog:PATH`
/// and `journald:PATH` name them; SIGHUP connects to them again, so a
/// restarted service gets the next lines.
#[test]
fn logs_go_to_syslog_and_the_journal_under_their_own_names() {
    use std::os::unix::net::UnixDatagram;
    let sockets = tempfile::Builder::new()
        .prefix("mrtest-syslog")
        .tempdir()
        .unwrap();
    let bind = |name: &str| {
        let path = sockets.path().join(name);
        let socket = UnixDatagram::bind(&path).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        (socket, path)
    };
    let (syslog, syslog_path) = bind("log");
    let (journal, journal_path) = bind("journal");
    let target = |text: String| text.parse::<LogTarget>().unwrap();
    let fixture = Fixture::start_with(quick(), &["mrtest-node", "mrtest-cli"], |config| {
        config.log_file = Some(target(format!("syslog:{}", syslog_path.display())));
        config.audit_log = Some(target(format!("syslog:{}", syslog_path.display())));
        config.access_log = Some(target(format!("journald:{}", journal_path.display())));
    });
    // Every record until one holds `wanted`.
    let until = |socket: &UnixDatagram, wanted: &str| -> Vec<Vec<u8>> {
        let mut seen = Vec::new();
        let mut buffer = vec![0u8; 65536];
        loop {
            let n = socket
                .recv(&mut buffer)
                .unwrap_or_else(|e| panic!("no record with {wanted} ({e}) after {seen:?}"));
            let record = buffer[..n].to_vec();
            let done = String::from_utf8_lossy(&record).contains(wanted);
            seen.push(record);
            if done {
                return seen;
            }
        }
    };
    let text = |records: &[Vec<u8>]| {
        records
            .iter()
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect::<Vec<_>>()
    };

    let mut node = fixture.connect(Some("mrtest-node")).unwrap();
    assert_eq!(node.get("/puppet/v3/environments").unwrap(), 200);
    let access = text(&until(&journal, "GET /puppet/v3/environments"));
    let record = access.last().unwrap();
    let fields: Vec<&str> = record.lines().collect();
    assert!(
        fields[0].starts_with("MESSAGE=127.0.0.1 - mrtest-node [")
            && fields[0].contains("] \"GET /puppet/v3/environments HTTP/1.1\" 200 "),
        "{record}"
    );
    // info (6), daemon (3).
    assert_eq!(
        fields[1..4],
        [
            "PRIORITY=6",
            "SYSLOG_FACILITY=3",
            "SYSLOG_IDENTIFIER=marionette-server-access"
        ],
        "{record}"
    );

    let mut admin = fixture.connect(Some("mrtest-cli")).unwrap();
    assert_eq!(revoke(&mut admin, "mrtest-node"), 204);
    let pid = std::process::id();
    let audit = text(&until(&syslog, "revoked mrtest-node"));
    let record = audit.last().unwrap();
    // authpriv (10) * 8 + notice (5): Debian's syslog files it in
    // auth.log.
    assert!(record.starts_with("<85>"), "{record}");
    assert!(
        record.ends_with(&format!(
            " marionette-server-audit[{pid}]: CA: mrtest-cli from 127.0.0.1 revoked mrtest-node"
        )),
        "{record}"
    );

    // The service restarts at another socket file in the same place; the
    // server's log says it reconnected, as a notice, without the level's
    // word, which syslog's priority carries.
    drop(syslog);
    std::fs::remove_file(&syslog_path).unwrap();
    let (syslog, _) = bind("log");
    let hangup = std::process::Command::new("kill")
        .args(["-HUP", &pid.to_string()])
        .status()
        .unwrap();
    assert!(hangup.success());
    let said = text(&until(&syslog, "Reopened the log files"));
    assert!(
        said.last().unwrap().starts_with("<29>")
            && said.last().unwrap().ends_with(&format!(
                " marionette-server[{pid}]: Reopened the log files"
            )),
        "{said:?}"
    );
}

/// PuppetDB's plain-HTTP port, as PuppetDB's `[jetty]` one: its API and
/// the status API to anyone who reaches it, without a certificate and
/// whatever the allowlist says, and nothing of Puppet's API, while the
/// TLS port goes on answering as before.
#[test]
fn puppetdb_api_over_plain_http_on_its_own_port() {
    let dir = tempfile::tempdir().unwrap();
    let store = marionette_storage::Store::open(&dir.path().join("store.sqlite3")).unwrap();
    let fixture = Fixture::start_with(Limits::default(), &["mrtest-allowed"], |config| {
        config.storage = Some(Arc::new(store));
        config.puppetdb = marionette_server::PuppetDbAccess {
            allowlist: Some(vec!["mrtest-allowed".into()]),
            only: false,
            plain_bind: Some("127.0.0.1:0".parse().unwrap()),
            ..Default::default()
        };
    });
    let server = fixture.server.as_ref().unwrap();
    let plain = server.plain_address().expect("the plain port is open");
    assert_ne!(plain, server.address());
    let get = |path: &str| {
        plain_http(
            plain,
            &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
        )
    };
    let (status, body) = get("/pdb/query/v4/nodes");
    assert_eq!(status, 200, "{body}");
    assert!(body.ends_with("[]"), "{body}");
    let (status, body) = get("/pdb/meta/v1/version");
    assert_eq!(status, 200, "{body}");
    let (status, body) = get("/status/v1/services/puppetdb-status");
    assert_eq!(status, 200, "{body}");
    for path in [
        "/puppet-ca/v1/certificate/ca",
        "/puppet-ca/v1/certificate_statuses/any",
        "/puppet/v3/node/mrtest-allowed?environment=production",
        "/puppet-admin-api/v1/environment-cache",
        "/metrics",
    ] {
        let (status, body) = get(path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains("PuppetDB's API alone"), "{path}: {body}");
    }
    // The TLS port is unchanged: no certificate, no PuppetDB.
    let mut tls = fixture.connect(None).unwrap();
    assert_eq!(tls.fetch("GET", "/pdb/query/v4/nodes").unwrap().0, 403);
    let mut tls = fixture.connect(Some("mrtest-allowed")).unwrap();
    assert_eq!(tls.fetch("GET", "/pdb/query/v4/nodes").unwrap().0, 200);
}

/// PuppetDB's admin commands, as the puppetdb_gc module and operators send
/// them to the plain port: `clean` runs the collection's parts it names
/// with the configured TTLs, `delete` removes a node at once; anything
/// else is refused with PuppetDB's `data-invalid`.
#[test]
fn puppetdb_admin_commands_clean_and_delete() {
    use marionette_storage::commands;
    let dir = tempfile::tempdir().unwrap();
    let store =
        Arc::new(marionette_storage::Store::open(&dir.path().join("store.sqlite3")).unwrap());
    let mut values = serde_json::Map::new();
    values.insert("kernel".into(), serde_json::json!("Linux"));
    for node in ["mrtest-gone.example", "mrtest-live.example"] {
        let payload = commands::replace_facts(node, "production", &values, None, "server");
        let (command, version) = commands::REPLACE_FACTS;
        store.submit(command, version, node, &payload).unwrap();
    }
    let mut deactivation = commands::deactivate_node("mrtest-gone.example");
    deactivation["producer_timestamp"] = serde_json::json!("2000-01-01T00:00:00.000Z");
    let (command, version) = commands::DEACTIVATE_NODE;
    store
        .submit(command, version, "mrtest-gone.example", &deactivation)
        .unwrap();
    let kept = store.clone();
    let fixture = Fixture::start_with(Limits::default(), &[], |config| {
        config.storage = Some(kept);
        config.puppetdb = marionette_server::PuppetDbAccess {
            plain_bind: Some("127.0.0.1:0".parse().unwrap()),
            ..Default::default()
        };
    });
    let plain = fixture.server.as_ref().unwrap().plain_address().unwrap();
    let ask = |method: &str, body: &str| {
        plain_http(
            plain,
            &format!(
                "{method} /pdb/admin/v1/cmd HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    let nodes = || -> Vec<String> {
        store
            .query(
                "nodes",
                Some(&serde_json::json!(["=", "node_state", "any"])),
                &Default::default(),
            )
            .unwrap()
            .iter()
            .map(|n| n["certname"].as_str().unwrap().to_string())
            .collect()
    };
    // Expiring only: the node deactivated in 2000 stays.
    assert_eq!(
        ask(
            "POST",
            r#"{"command": "clean", "version": 1, "payload": ["expire_nodes", "gc_packages"]}"#
        ),
        (200, r#"{"ok":true}"#.to_string())
    );
    assert_eq!(nodes(), ["mrtest-gone.example", "mrtest-live.example"]);
    assert_eq!(
        ask(
            "POST",
            r#"{"command": "clean", "version": 1, "payload": [["purge_nodes", {"batch_limit": 5}]]}"#
        ),
        (200, r#"{"ok":true}"#.to_string())
    );
    assert_eq!(nodes(), ["mrtest-live.example"]);
    assert_eq!(
        ask(
            "POST",
            r#"{"command": "delete", "version": 1, "payload": {"certname": "mrtest-live.example"}}"#
        ),
        (200, r#"{"deleted":"mrtest-live.example"}"#.to_string())
    );
    assert!(nodes().is_empty());
    for wrong in [
        r#"{"command": "clean", "version": 1, "payload": ["purge_everything"]}"#,
        r#"{"command": "clean", "version": 2, "payload": []}"#,
        r#"{"command": "delete", "version": 1, "payload": {}}"#,
        "not json",
    ] {
        let (status, body) = ask("POST", wrong);
        assert_eq!(status, 400, "{wrong}: {body}");
        if wrong != "not json" {
            assert!(body.contains(r#""kind":"data-invalid""#), "{wrong}: {body}");
        }
    }
    assert_eq!(ask("GET", "").0, 405);
    let log = std::fs::read_to_string(fixture.path().join("server.log")).unwrap();
    assert!(
        log.contains(
            "PuppetDB's delete of mrtest-live.example, as a client without a certificate asked"
        ),
        "{log}"
    );
}

/// PuppetDB's API to the certificates of its allowlist alone, and a
/// server that serves it alone (as `marionette storage serve` does)
/// answers nothing else, the CA's API included.
#[test]
fn puppetdb_api_to_the_allowlist_alone() {
    let dir = tempfile::tempdir().unwrap();
    let store = marionette_storage::Store::open(&dir.path().join("store.sqlite3")).unwrap();
    let fixture = Fixture::start_with(
        Limits::default(),
        &["mrtest-allowed", "mrtest-other"],
        |config| {
            config.storage = Some(Arc::new(store));
            config.puppetdb = marionette_server::PuppetDbAccess {
                allowlist: Some(vec!["mrtest-allowed".into()]),
                only: true,
                ..Default::default()
            };
        },
    );
    let ask = |name: Option<&str>, path: &str| {
        let mut tls = fixture.connect(name).unwrap();
        tls.fetch("GET", path).unwrap()
    };
    let (status, body) = ask(Some("mrtest-allowed"), "/pdb/query/v4/nodes");
    assert_eq!((status, body.as_str()), (200, "[]"));
    let (status, body) = ask(
        Some("mrtest-allowed"),
        "/pdb/query/v4?query=nodes%5Bcount()%5D%20%7B%7D",
    );
    assert_eq!((status, body.as_str()), (200, "[{\"count\":0}]"));
    // Event counts take what to summarize by from the URL.
    let (status, body) = ask(
        Some("mrtest-allowed"),
        "/pdb/query/v4/event-counts?summarize_by=certname&counts_filter=%5B%22%3E%22%2C%22failures%22%2C0%5D",
    );
    assert_eq!((status, body.as_str()), (200, "[]"));
    let (status, body) = ask(
        Some("mrtest-allowed"),
        "/pdb/query/v4/aggregate-event-counts?summarize_by=certname,resource",
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"summarize_by\":\"resource\""), "{body}");
    let (status, body) = ask(Some("mrtest-allowed"), "/pdb/query/v4/event-counts");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("summarize_by"), "{body}");
    let (status, body) = ask(
        Some("mrtest-allowed"),
        "/pdb/query/v4/event-counts?summarize_by=certname&counts_filter=%5B",
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = ask(
        Some("mrtest-allowed"),
        "/metrics/v2/read/puppetlabs.puppetdb.population:name=num-nodes",
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"Value\":0"), "{body}");
    for (name, path) in [
        (Some("mrtest-other"), "/pdb/query/v4/nodes"),
        (Some("mrtest-other"), "/pdb/meta/v1/version"),
        (
            Some("mrtest-other"),
            "/metrics/v2/read/puppetlabs.puppetdb.population:name=num-nodes",
        ),
        (None, "/pdb/query/v4/nodes"),
    ] {
        assert_eq!(ask(name, path).0, 403, "{name:?} {path}");
    }
    // The status API is anyone's, as PuppetDB's is.
    let (status, body) = ask(None, "/status/v1/services/puppetdb-status");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"read_db_up?\":true"), "{body}");
    // Nothing of Puppet's API.
    for path in [
        "/puppet-ca/v1/certificate/ca",
        "/puppet/v3/node/mrtest-allowed?environment=production",
        "/metrics",
    ] {
        assert_eq!(ask(Some("mrtest-allowed"), path).0, 404, "{path}");
    }
    assert_eq!(
        fixture
            .compiler
            .compiles
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
}

/// The metric families Prometheus's text parser (python3-prometheus-client)
/// reads in `text`, each with its samples' types checked; a text it
/// refuses fails the test.
fn prometheus_families(text: &str) -> std::collections::BTreeSet<String> {
    use std::io::Write;
    let mut child = std::process::Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import sys\n\
             from prometheus_client.parser import text_string_to_metric_families\n\
             for f in text_string_to_metric_families(sys.stdin.read()):\n\
             \x20   assert f.type in ('counter', 'gauge', 'histogram', 'summary', 'untyped'), f.type\n\
             \x20   assert all(isinstance(s.value, float) for s in f.samples), f.name\n\
             \x20   print(f.name)\n",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        !said.contains("No module named 'prometheus_client'"),
        "this test needs Prometheus's parser: apt-get install python3-prometheus-client"
    );
    assert!(
        output.status.success(),
        "Prometheus's parser refused the metrics: {said}\n{text}"
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}
