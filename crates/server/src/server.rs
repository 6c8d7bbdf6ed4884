//! The listener: TLS connections accepted on the runtime's threads, one
//! HTTP/1.1 conversation each (kept alive, as agents keep it), requests
//! routed to the CA and v3 handlers.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Response, StatusCode};
use hyper_util::rt::TokioIo;
use marionette_ca::CertificateAuthority;
use rustls::ServerConfig;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpListener;

use crate::admission::Admission;
use crate::files::Checksums;
use crate::http::{self, Client, Request};
use crate::logs::LogSink;
use crate::{Compiler, Config, ServerError};
use marionette_diagnostics::system_log::{Facility, Priority};

/// What every request may use.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) ca: CertificateAuthority,
    pub(crate) compiler: Arc<dyn Compiler>,
    pub(crate) checksums: Checksums,
    /// One permit per core: compiles beyond that wait their turn, so a
    /// burst of agents costs queueing time, not memory.
    pub(crate) compiles: tokio::sync::Semaphore,
    /// How many permits `compiles` has.
    pub(crate) compile_slots: usize,
    /// A PuppetDB `clean` is running: one at a time, as PuppetDB runs
    /// them.
    pub(crate) cleaning: std::sync::atomic::AtomicBool,
    /// Where PuppetDB's queries run: as many threads as the storage reads
    /// with at once.
    pub(crate) queries: crate::pool::Pool,
    /// Where PuppetDB's commands are stored: one thread, as the storage
    /// writes one command at a time. (On the runtime's blocking pool, a
    /// burst of commands had a thread each waiting its turn, each
    /// keeping the memory it had used.)
    pub(crate) commands: crate::pool::Pool,
    tls: RwLock<Arc<ServerConfig>>,
    log_file: Option<LogSink>,
    access_log: Option<LogSink>,
    audit_log: Option<LogSink>,
    pub(crate) metrics: crate::metrics::Metrics,
    /// When an unreadable CRL was last said.
    crl_said: std::sync::Mutex<Option<std::time::Instant>>,
    identity: (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>),
}

impl State {
    /// Opens (or creates) the CA, issues the server's certificate when it
    /// has none, and opens the log.
    pub(crate) fn new(config: Config, compiler: Arc<dyn Compiler>) -> Result<State, ServerError> {
        let ca = CertificateAuthority::open_or_create(&config.cadir, config.ca.clone())?;
        let identity = crate::tls::identity(&config, &ca)?;
        let tls = crate::tls::server_config(&ca, &identity.0, &identity.1)?;
        // Lines sent to the log service are named by log; CA actions are
        // filed with the other security messages.
        let open = |target: &Option<crate::LogTarget>, what: &str, name: &str, facility| {
            target
                .as_ref()
                .map(|target| {
                    LogSink::open(target, name, facility).map_err(|source| ServerError::Io {
                        what: format!("could not open the {what} {target}"),
                        source,
                    })
                })
                .transpose()
        };
        let slots = std::thread::available_parallelism().map_or(2, |n| n.get());
        Ok(State {
            log_file: open(
                &config.log_file,
                "log",
                "marionette-server",
                Facility::Daemon,
            )?,
            access_log: open(
                &config.access_log,
                "access log",
                "marionette-server-access",
                Facility::Daemon,
            )?,
            audit_log: open(
                &config.audit_log,
                "audit log",
                "marionette-server-audit",
                Facility::AuthPriv,
            )?,
            metrics: crate::metrics::Metrics::default(),
            crl_said: std::sync::Mutex::default(),
            config,
            ca,
            compiler,
            checksums: Checksums::default(),
            compiles: tokio::sync::Semaphore::new(slots),
            compile_slots: slots,
            cleaning: std::sync::atomic::AtomicBool::new(false),
            queries: crate::pool::Pool::new(
                marionette_storage::Store::concurrent_reads(),
                "pdb-query",
            )
            .map_err(|e| ServerError::Io {
                what: "the query threads".into(),
                source: e,
            })?,
            commands: crate::pool::Pool::new(1, "pdb-command").map_err(|e| ServerError::Io {
                what: "the command thread".into(),
                source: e,
            })?,
            tls: RwLock::new(tls),
            identity,
        })
    }

    /// A line of the server's log: on standard error, or appended to the
    /// log file with its time. The file stays open, so the server can
    /// still say it is out of descriptors.
    pub(crate) fn log(&self, message: &str) {
        self.log_line(&format!("Notice: {message}"));
    }

    /// Writes a line that says its own level (`Error: ...`) to the log.
    pub(crate) fn log_line(&self, line: &str) {
        let Some(sink) = &self.log_file else {
            eprintln!("{line}");
            return;
        };
        let written = match sink {
            LogSink::System(_) => {
                let (priority, text) = crate::logs::leveled(line);
                sink.write(priority, text)
            }
            LogSink::File { .. } => sink.write(Priority::Notice, line),
        };
        if written.is_err() {
            eprintln!("{line}");
        }
    }

    /// Writes what a client did to the certificate authority: to the
    /// audit log, else the server's log.
    pub(crate) fn audit(&self, client: &Client, action: &str, certname: &str) {
        let who = client
            .certname()
            .unwrap_or("an agent without a certificate");
        let from = client
            .peer
            .map_or_else(String::new, |peer| format!(" from {peer}"));
        let message = format!("CA: {who}{from} {action} {certname}");
        match &self.audit_log {
            Some(sink) => {
                if sink.write(Priority::Notice, &message).is_err() {
                    self.log(&message);
                }
            }
            None => self.log(&message),
        }
    }

    /// One request in the access log, and in the counts.
    pub(crate) fn access(&self, access: &crate::logs::Access<'_>, endpoint: &'static str) {
        self.metrics.request(endpoint, access.status, access.took);
        if let Some(sink) = &self.access_log
            && let Err(e) = sink.write_raw(Priority::Info, &crate::logs::access_line(access))
        {
            self.log(&format!(
                "Could not write to the access log {}: {e}",
                sink.describe()
            ));
        }
    }

    /// Opens the log files anew (on `SIGHUP`), after a rotation moved
    /// them away.
    pub(crate) fn reopen_logs(&self) {
        for sink in [&self.log_file, &self.access_log, &self.audit_log]
            .into_iter()
            .flatten()
        {
            if let Err(e) = sink.reopen() {
                eprintln!("Could not reopen {}: {e}", sink.describe());
            }
        }
        self.log("Reopened the log files");
    }

    /// Takes in a CRL another process wrote (`marionette ca revoke`):
    /// a stat of the file when nothing changed. When it cannot be read,
    /// the revocations known stay in force and the log says why.
    pub(crate) fn check_crl(&self) {
        match self.ca.refresh_crl() {
            Ok(true) => self.reload_crl(),
            Ok(false) => {}
            Err(e) => {
                // Asked at every request: said once a minute.
                let mut said = self.crl_said.lock().unwrap_or_else(|e| e.into_inner());
                if said.is_none_or(|at| at.elapsed() > std::time::Duration::from_secs(60)) {
                    *said = Some(std::time::Instant::now());
                    self.log(&format!("Could not read the CRL: {e}"));
                }
            }
        }
    }

    /// Takes the CA's new CRL into the TLS configuration, so a revoked
    /// certificate is refused from the next handshake on.
    pub(crate) fn reload_crl(&self) {
        match crate::tls::server_config(&self.ca, &self.identity.0, &self.identity.1) {
            Ok(config) => {
                *self.tls.write().unwrap_or_else(|e| e.into_inner()) = config;
            }
            Err(e) => self.log(&format!("Could not reload the CRL: {e}")),
        }
    }

    fn tls(&self) -> Arc<ServerConfig> {
        self.tls.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A running server.
pub struct Server {
    address: SocketAddr,
    plain_address: Option<SocketAddr>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Opens (or creates) the CA, issues the server's certificate when it
    /// has none, and starts listening.
    pub fn start(config: Config, compiler: Arc<dyn Compiler>) -> Result<Server, ServerError> {
        let state = Arc::new(State::new(config, compiler)?);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("server")
            .build()
            .map_err(|source| ServerError::Io {
                what: "could not start the runtime".into(),
                source,
            })?;
        let bind = state.config.bind;
        let listener = runtime
            .block_on(TcpListener::bind(bind))
            .map_err(|source| ServerError::Io {
                what: format!("could not listen on {bind}"),
                source,
            })?;
        let address = listener.local_addr().map_err(|source| ServerError::Io {
            what: "could not read the listening address".into(),
            source,
        })?;
        let plain = state
            .config
            .puppetdb
            .plain_bind
            .map(|bind| {
                runtime
                    .block_on(TcpListener::bind(bind))
                    .map_err(|source| ServerError::Io {
                        what: format!("could not listen on {bind} (PuppetDB's plain-HTTP port)"),
                        source,
                    })
            })
            .transpose()?;
        let plain_address = plain.as_ref().and_then(|l| l.local_addr().ok());
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("server".into())
            .spawn(move || runtime.block_on(serve(listener, plain, state, stopped)))
            .map_err(|source| ServerError::Io {
                what: "could not start the server's thread".into(),
                source,
            })?;
        Ok(Server {
            address,
            plain_address,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Where the server listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Where PuppetDB's plain-HTTP port listens, when it is open.
    pub fn plain_address(&self) -> Option<SocketAddr> {
        self.plain_address
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops listening; connections under way end with the runtime.
    pub fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn serve(
    listener: TcpListener,
    plain: Option<TcpListener>,
    state: Arc<State>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let limits = &state.config.limits;
    let connections = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    // PuppetDB's plain-HTTP port takes its turns within the same cap, and
    // ends with the runtime when the server stops.
    if let Some(plain) = plain {
        tokio::spawn(serve_plain(plain, state.clone(), connections.clone()));
    }
    // SIGHUP reopens the logs, as logrotate's postrotate expects of a
    // daemon; where the handler cannot be set, the signal keeps its
    // default.
    if let Ok(mut hangups) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
    {
        let state = state.clone();
        tokio::spawn(async move {
            while hangups.recv().await.is_some() {
                state.reopen_logs();
            }
        });
    }
    let mut refusing = Backoff::default();
    loop {
        // At the cap, clients wait in the listen queue until a connection
        // ends, rather than each holding a descriptor here.
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => permit,
            _ = &mut stopped => return,
        };
        let Ok(permit) = permit else { return };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stopped => return,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => {
                if refusing.recovered() {
                    state.log("Accepting connections again");
                }
                accepted
            }
            Err(e) => {
                // Out of descriptors (or memory), accept fails at once
                // again: wait for connections to end instead of spinning,
                // and say so once.
                if let Some(pause) = refusing.failed(&e) {
                    if refusing.should_say() {
                        state.log(&format!(
                            "Could not accept a connection ({e}); trying again as connections end"
                        ));
                    }
                    tokio::time::sleep(pause).await;
                }
                continue;
            }
        };
        // Each response goes out at once: without it, a pluginsync of many
        // small files waits on the peer's delayed acknowledgements.
        let _ = stream.set_nodelay(true);
        state.check_crl();
        let state = state.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _open = OpenConnection::new(state.clone());
            let limits = state.config.limits.clone();
            let acceptor = tokio_rustls::TlsAcceptor::from(state.tls());
            let handshake = tokio::time::timeout(limits.handshake_timeout, acceptor.accept(stream));
            let Ok(Ok(tls)) = handshake.await else {
                // A refused certificate (revoked, unknown CA), a client
                // that gave up, or one that never finished: nothing to
                // answer.
                return;
            };
            let identity = tls
                .get_ref()
                .1
                .peer_certificates()
                .and_then(|certs| certs.first())
                .and_then(|cert| marionette_ca::identity(cert));
            let client = Client {
                identity,
                peer: Some(peer.ip()),
                plain: false,
            };
            serve_connection(state, client, tls).await;
        });
    }
}

/// Answers the requests of one connection, TLS or plain, until it ends.
async fn serve_connection<S>(state: Arc<State>, client: Client, stream: S)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let idle = state.config.limits.idle_timeout;
    let service = hyper::service::service_fn(move |request| {
        let (state, client) = (state.clone(), client.clone());
        async move { Ok::<_, Infallible>(route(&state, &client, request).await) }
    });
    // The head's timer also closes a kept-alive connection that stays
    // silent between requests.
    let _ = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(idle)
        .serve_connection(
            TokioIo::new(crate::timed::WriteTimeout::new(stream, idle)),
            service,
        )
        .await;
}

/// PuppetDB's plain-HTTP port: its API without TLS or certificates, for
/// the tools on the server's machine (`PuppetDbAccess::plain_bind`).
async fn serve_plain(
    listener: TcpListener,
    state: Arc<State>,
    connections: Arc<tokio::sync::Semaphore>,
) {
    loop {
        let Ok(permit) = connections.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of descriptors: wait for connections to end.
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let state = state.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _open = OpenConnection::new(state.clone());
            let client = Client {
                identity: None,
                peer: Some(peer.ip()),
                plain: true,
            };
            serve_connection(state, client, stream).await;
        });
    }
}

/// Counts a connection as open for as long as it lives.
struct OpenConnection(Arc<State>);

impl OpenConnection {
    fn new(state: Arc<State>) -> OpenConnection {
        state
            .metrics
            .connections
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenConnection(state)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0
            .metrics
            .connections
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The pauses of an accept loop that fails: from 10 ms, doubling to a
/// second, for errors that come back at once (no descriptors, no memory).
/// Under lasting pressure the loop fails and recovers many times a
/// second: it says so once a minute, not at each turn.
#[derive(Default)]
struct Backoff {
    failures: u32,
    /// When the last failure was said, and whether its recovery is owed.
    said: Option<std::time::Instant>,
    recovery_owed: bool,
}

impl Backoff {
    /// After a failed accept: how long to wait, or `None` for an error
    /// of the one connection (it went away before it was accepted).
    fn failed(&mut self, error: &std::io::Error) -> Option<std::time::Duration> {
        let exhausted = matches!(
            error.raw_os_error(),
            Some(
                libc_errno::EMFILE | libc_errno::ENFILE | libc_errno::ENOBUFS | libc_errno::ENOMEM
            )
        );
        if !exhausted {
            return None;
        }
        self.failures += 1;
        Some(
            std::time::Duration::from_millis(10u64 << (self.failures - 1).min(6))
                .min(std::time::Duration::from_secs(1)),
        )
    }

    /// Whether the failure just counted is to be logged: the first of its
    /// run, and none said in the last minute.
    fn should_say(&mut self) -> bool {
        let quiet = self
            .said
            .is_none_or(|at| at.elapsed() > std::time::Duration::from_secs(60));
        if self.failures == 1 && quiet {
            self.said = Some(std::time::Instant::now());
            self.recovery_owed = true;
            return true;
        }
        false
    }

    /// After an accept that worked: whether a failure that was said ends
    /// here.
    fn recovered(&mut self) -> bool {
        self.failures = 0;
        std::mem::take(&mut self.recovery_owed)
    }
}

/// The errno values the accept loop waits out (Linux's numbers).
mod libc_errno {
    pub(super) const ENOMEM: i32 = 12;
    pub(super) const ENFILE: i32 = 23;
    pub(super) const EMFILE: i32 = 24;
    pub(super) const ENOBUFS: i32 = 105;
}

/// Why a body could not be read.
enum BodyError {
    TooLarge,
    Silent,
    Broken,
}

/// Reads a body of at most `limit` bytes, each part arriving within
/// `idle` of the one before.
async fn read_body(
    mut body: Incoming,
    limit: usize,
    idle: std::time::Duration,
) -> Result<bytes::Bytes, BodyError> {
    let mut read = bytes::BytesMut::new();
    loop {
        let frame = match tokio::time::timeout(idle, body.frame()).await {
            Err(_) => return Err(BodyError::Silent),
            Ok(None) => return Ok(read.freeze()),
            Ok(Some(Err(_))) => return Err(BodyError::Broken),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Ok(data) = frame.into_data() {
            if read.len() + data.len() > limit {
                return Err(BodyError::TooLarge);
            }
            read.extend_from_slice(&data);
        }
    }
}

/// The most of a refused body read (and thrown away) so that its sender
/// reads the refusal.
const DRAINED: u64 = 1 << 20;

/// Reads a refused body's rest, when it is not too long, before the
/// connection closes: a connection closed with what its client sent still
/// unread is reset, and a client still sending may lose the answer (the
/// 413 that says why) to the reset.
async fn drain(mut body: Incoming, declared: Option<u64>) {
    if declared.is_none_or(|length| length > DRAINED) {
        return;
    }
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while let Some(Ok(_)) = body.frame().await {}
    })
    .await;
}

/// Answers a request, then counts it and writes it to the access log.
pub(crate) async fn route(
    state: &Arc<State>,
    client: &Client,
    request: hyper::Request<Incoming>,
) -> Response<Full<bytes::Bytes>> {
    let at = std::time::SystemTime::now();
    let started = std::time::Instant::now();
    let header = |name: hyper::header::HeaderName| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (referer, user_agent) = (
        header(hyper::header::REFERER),
        header(hyper::header::USER_AGENT),
    );
    let content_length =
        header(hyper::header::CONTENT_LENGTH).and_then(|length| length.parse().ok());
    let request_line = format!(
        "{} {} {:?}",
        request.method(),
        request.uri().path_and_query().map_or("/", |p| p.as_str()),
        request.version()
    );
    let endpoint = crate::metrics::endpoint(request.uri().path());
    let response = answer(state, client, request).await;
    let bytes = hyper::body::Body::size_hint(response.body())
        .exact()
        .unwrap_or_default();
    state.access(
        &crate::logs::Access {
            peer: client.peer,
            certname: client.certname(),
            at,
            request_line: &request_line,
            status: response.status().as_u16(),
            bytes,
            referer: referer.as_deref(),
            user_agent: user_agent.as_deref(),
            took: started.elapsed(),
            content_length,
        },
        endpoint,
    );
    response
}

async fn answer(
    state: &Arc<State>,
    client: &Client,
    request: hyper::Request<Incoming>,
) -> Response<Full<bytes::Bytes>> {
    let (parts, body) = request.into_parts();
    let accept_encoding = http::accept_encoding(&parts.headers);
    // The path with its `%XX` escapes decoded (module files may have
    // blanks).
    let path = percent_encoding::percent_decode_str(parts.uri.path())
        .decode_utf8_lossy()
        .into_owned();
    // A kept-alive connection of a certificate revoked since its
    // handshake goes no further.
    state.check_crl();
    if client
        .identity
        .as_ref()
        .is_some_and(|i| state.ca.is_revoked(&i.serial))
    {
        return http::finish(
            http::text(StatusCode::FORBIDDEN, "The client's certificate is revoked"),
            None,
        );
    }
    let declared = parts
        .headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let limits = &state.config.limits;
    let admitted = crate::admission::admit(
        &parts.method,
        &path,
        client,
        &state.config.ca_admins,
        declared,
        limits,
    );
    let limit = match admitted {
        Admission::Read(limit) => limit,
        Admission::Refuse(status) => {
            // A client waiting for "100 Continue" sends no body; reading
            // it would ask for it.
            if status == StatusCode::PAYLOAD_TOO_LARGE
                && !parts.headers.contains_key(hyper::header::EXPECT)
            {
                tokio::spawn(drain(body, declared));
            }
            return http::finish(refusal(status, &parts), None);
        }
    };
    // A body trickled a byte at a time stays within the idle timeout;
    // the whole of it must come within ten of them.
    let whole = tokio::time::timeout(
        limits.idle_timeout * 10,
        read_body(body, limit, limits.idle_timeout),
    );
    let body = match whole.await.unwrap_or(Err(BodyError::Silent)) {
        Ok(body) => body,
        Err(failure) => {
            let answer = match failure {
                BodyError::TooLarge => refusal(StatusCode::PAYLOAD_TOO_LARGE, &parts),
                BodyError::Silent => http::text(
                    StatusCode::REQUEST_TIMEOUT,
                    "The request's body stopped coming",
                ),
                BodyError::Broken => http::text(
                    StatusCode::BAD_REQUEST,
                    "The request's body could not be read",
                ),
            };
            return http::finish(answer, None);
        }
    };
    let request = Request {
        method: parts.method,
        path: parts.uri.path().to_string(),
        query: parts
            .uri
            .query()
            .map(|q| http::form(q.as_bytes()))
            .unwrap_or_default(),
        body,
        if_none_match: parts
            .headers
            .get(hyper::header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        gzip: http::takes_gzip(accept_encoding.as_ref()),
    };
    let puppetdb_only = state.config.puppetdb.only && !crate::is_puppetdb_path(&path);
    let response = if puppetdb_only {
        http::error(
            StatusCode::NOT_FOUND,
            &format!("No route for {path}: this server serves PuppetDB's API alone"),
        )
    } else if let Some(rest) = path.strip_prefix("/puppet-ca/v1/") {
        crate::api_ca::handle(state, client, &request, rest)
    } else if let Some(rest) = path.strip_prefix("/puppet/v3/") {
        crate::api_v3::handle(state, client, &request, rest).await
    } else if let Some(rest) = path.strip_prefix("/pdb/") {
        crate::api_pdb::handle(state, client, &request, rest).await
    } else if path == "/status/v1/simple" || path.starts_with("/status/v1/simple/") {
        http::text(StatusCode::OK, "running")
    } else if path == "/status/v1/services" || path.starts_with("/status/v1/services/") {
        crate::status::services(state, &request, path.strip_prefix("/status/v1/services/")).await
    } else if path == "/metrics" {
        crate::status::metrics(state)
    } else if let Some(rest) = path.strip_prefix("/metrics/v2/") {
        crate::api_pdb::metrics(state, client, &request, rest).await
    } else if let Some(rest) = path.strip_prefix("/puppet-admin-api/v1/") {
        crate::status::admin(state, client, &request, rest)
    } else {
        http::error(StatusCode::NOT_FOUND, &format!("No route for {path}"))
    };
    http::finish(response, accept_encoding.as_ref())
}

/// The answer to a request refused on its head or its size.
fn refusal(status: StatusCode, parts: &hyper::http::request::Parts) -> Response<http::Body> {
    if status == StatusCode::NOT_FOUND {
        return http::error(
            status,
            &format!(
                "No route for {}: this port serves PuppetDB's API alone",
                parts.uri.path()
            ),
        );
    }
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return http::text(
            status,
            format!(
                "The request is too large for {} {}",
                parts.method,
                parts.uri.path()
            ),
        );
    }
    http::forbidden_path(parts.uri.path(), &parts.method)
}
