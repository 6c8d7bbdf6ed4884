//! The listener: TLS connections accepted on the runtime's threads, one
//! HTTP/1.1 conversation each (kept alive, as agents keep it), requests
//! routed to the CA and v3 handlers.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Response, StatusCode};
use hyper_util::rt::TokioIo;
use marionette_ca::CertificateAuthority;
use rustls::ServerConfig;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpListener;

use crate::files::Checksums;
use crate::http::{self, Client, Request};
use crate::{Compiler, Config, ServerError};

/// The largest request body taken: a report of a large catalog fits.
const MAX_BODY: usize = 256 * 1024 * 1024;

/// What every request may use.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) ca: CertificateAuthority,
    pub(crate) compiler: Arc<dyn Compiler>,
    pub(crate) checksums: Checksums,
    /// One permit per core: compiles beyond that wait their turn, so a
    /// burst of agents costs queueing time, not memory.
    pub(crate) compiles: tokio::sync::Semaphore,
    tls: RwLock<Arc<ServerConfig>>,
    identity: (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>),
}

impl State {
    /// A line of the server's log: on standard error, or appended to the
    /// log file with its time.
    pub(crate) fn log(&self, message: &str) {
        let Some(path) = &self.config.log_file else {
            eprintln!("Notice: {message}");
            return;
        };
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or_default();
        let line = format!("{seconds:.3} Notice: {message}\n");
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, line.as_bytes()));
        if written.is_err() {
            eprint!("Notice: {line}");
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
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Opens (or creates) the CA, issues the server's certificate when it
    /// has none, and starts listening.
    pub fn start(config: Config, compiler: Arc<dyn Compiler>) -> Result<Server, ServerError> {
        let ca = CertificateAuthority::open_or_create(&config.cadir, config.ca.clone())?;
        let identity = crate::tls::identity(&config, &ca)?;
        let tls = crate::tls::server_config(&ca, &identity.0, &identity.1)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("server")
            .build()
            .map_err(|source| ServerError::Io {
                what: "could not start the runtime".into(),
                source,
            })?;
        let listener = runtime
            .block_on(TcpListener::bind(config.bind))
            .map_err(|source| ServerError::Io {
                what: format!("could not listen on {}", config.bind),
                source,
            })?;
        let address = listener.local_addr().map_err(|source| ServerError::Io {
            what: "could not read the listening address".into(),
            source,
        })?;
        let state = Arc::new(State {
            config,
            ca,
            compiler,
            checksums: Checksums::default(),
            compiles: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()),
            ),
            tls: RwLock::new(tls),
            identity,
        });
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let thread = std::thread::Builder::new()
            .name("server".into())
            .spawn(move || runtime.block_on(serve(listener, state, stopped)))
            .map_err(|source| ServerError::Io {
                what: "could not start the server's thread".into(),
                source,
            })?;
        Ok(Server {
            address,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Where the server listens.
    pub fn address(&self) -> SocketAddr {
        self.address
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
    state: Arc<State>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stopped => return,
        };
        let Ok((stream, peer)) = accepted else {
            continue;
        };
        // Each response goes out at once: without it, a pluginsync of many
        // small files waits on the peer's delayed acknowledgements.
        let _ = stream.set_nodelay(true);
        let state = state.clone();
        tokio::spawn(async move {
            let acceptor = tokio_rustls::TlsAcceptor::from(state.tls());
            let Ok(tls) = acceptor.accept(stream).await else {
                // A refused certificate (revoked, unknown CA) or a client
                // that gave up: nothing to answer.
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
                local: peer.ip().is_loopback(),
            };
            let service = hyper::service::service_fn(move |request| {
                let (state, client) = (state.clone(), client.clone());
                async move { Ok::<_, Infallible>(route(&state, &client, request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(tls), service)
                .await;
        });
    }
}

async fn route(
    state: &Arc<State>,
    client: &Client,
    request: hyper::Request<Incoming>,
) -> Response<Full<bytes::Bytes>> {
    let (parts, body) = request.into_parts();
    let accept_encoding = http::accept_encoding(&parts.headers);
    let body = match Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            return http::finish(
                http::text(StatusCode::PAYLOAD_TOO_LARGE, "The request is too large"),
                None,
            );
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
    };
    // The path with its `%XX` escapes decoded (module files may have
    // blanks).
    let path = percent_encoding::percent_decode_str(&request.path)
        .decode_utf8_lossy()
        .into_owned();
    let response = if let Some(rest) = path.strip_prefix("/puppet-ca/v1/") {
        crate::api_ca::handle(state, client, &request, rest)
    } else if let Some(rest) = path.strip_prefix("/puppet/v3/") {
        crate::api_v3::handle(state, client, &request, rest).await
    } else if let Some(rest) = path.strip_prefix("/pdb/") {
        crate::api_pdb::handle(state, client, &request, rest).await
    } else if path == "/status/v1/simple" || path.starts_with("/status/v1/simple/") {
        http::text(StatusCode::OK, "running")
    } else if path == "/status/v1/services" {
        http::json(&serde_json::json!({
            "server": {"service_version": crate::PUPPET_VERSION, "state": "running", "status": {}}
        }))
    } else {
        http::error(StatusCode::NOT_FOUND, &format!("No route for {path}"))
    };
    http::finish(response, accept_encoding.as_ref())
}
