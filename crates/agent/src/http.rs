//! A small blocking HTTPS client for one server: one kept connection,
//! made again when the server closes it, responses read whole (and
//! ungzipped). Puppet's timeouts bound every wait: connecting (with the
//! TLS handshake) by `http_connect_timeout`, and each read of an answer
//! by `http_read_timeout`, so a server that stalls cannot hold a run.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rustls_pki_types::ServerName;

use crate::{AgentError, Settings};

/// A response, read whole.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The message of an error answer: Puppet's JSON `message`, or the text.
    pub(crate) fn message(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| {
                v.get("message")
                    .and_then(|m| m.as_str())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| self.text().trim().to_string())
    }
}

pub(crate) struct Client {
    runtime: tokio::runtime::Runtime,
    connector: tokio_rustls::TlsConnector,
    host: String,
    port: u16,
    connect_timeout: Duration,
    read_timeout: Duration,
    sender: Option<SendRequest<Full<Bytes>>>,
}

impl Client {
    /// A client of the settings' server.
    pub(crate) fn new(
        settings: &Settings,
        tls: rustls::ClientConfig,
    ) -> Result<Client, AgentError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| AgentError::Http(format!("could not start the client: {e}")))?;
        Ok(Client {
            runtime,
            connector: tokio_rustls::TlsConnector::from(Arc::new(tls)),
            host: settings.server.clone(),
            port: settings.port,
            connect_timeout: settings.http_connect_timeout,
            read_timeout: settings.http_read_timeout,
            sender: None,
        })
    }

    /// Sends a request and reads the answer; a connection the server
    /// closed is made again once.
    pub(crate) fn send(
        &mut self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Result<Answer, AgentError> {
        let body = Bytes::from(body);
        for attempt in 0..2 {
            if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
                self.sender = Some(self.connect()?);
            }
            let Some(sender) = self.sender.as_mut() else {
                continue;
            };
            let mut request = hyper::Request::builder()
                .method(method)
                .uri(path)
                .header("Host", &self.host)
                // Puppet's server negotiates by this list: JSON for its
                // v3 API, bytes for file contents, text for the CA's PEM.
                .header(
                    "Accept",
                    if path.starts_with("/puppet-ca/") {
                        "text/plain"
                    } else if path.starts_with("/puppet/v3/file_content/")
                        || path.starts_with("/puppet/v3/file_bucket_file/")
                    {
                        "application/octet-stream"
                    } else {
                        "application/json, text/pson"
                    },
                )
                .header("Accept-Encoding", "gzip")
                .header("User-Agent", "Puppet/7.23.0 Marionette");
            if let Some(kind) = content_type {
                request = request.header("Content-Type", kind);
            }
            let request = request
                .body(Full::new(body.clone()))
                .map_err(|e| AgentError::Http(e.to_string()))?;
            let read_timeout = self.read_timeout;
            let result = self.runtime.block_on(async {
                let response = within(read_timeout, sender.send_request(request)).await?;
                let status = response.status().as_u16();
                let gzipped = response
                    .headers()
                    .get("Content-Encoding")
                    .is_some_and(|v| v.as_bytes() == b"gzip");
                let mut body = response.into_body();
                let mut bytes = Vec::new();
                loop {
                    let frame = body.frame();
                    let Some(frame) =
                        within(read_timeout, async move { frame.await.transpose() }).await?
                    else {
                        break;
                    };
                    if let Ok(data) = frame.into_data() {
                        bytes.extend_from_slice(&data);
                    }
                }
                Ok::<_, Failure>((status, gzipped, bytes))
            });
            match result {
                Ok((status, gzipped, bytes)) => {
                    let body = if gzipped {
                        let mut out = Vec::new();
                        flate2::read::GzDecoder::new(&bytes[..])
                            .read_to_end(&mut out)
                            .map_err(|e| AgentError::Http(format!("a gzipped answer: {e}")))?;
                        out
                    } else {
                        bytes
                    };
                    return Ok(Answer { status, body });
                }
                // A server that stalls is not asked again: the run goes on
                // without it (to the cached catalog).
                Err(Failure::Timeout) => {
                    self.sender = None;
                    return Err(AgentError::Timeout(format!(
                        "{}:{}: no answer to {method} {} within {} seconds (http_read_timeout)",
                        self.host,
                        self.port,
                        path.split('?').next().unwrap_or(path),
                        read_timeout.as_secs()
                    )));
                }
                // The server may have closed a kept connection: once more
                // on a new one.
                Err(_) if attempt == 0 => self.sender = None,
                Err(Failure::Http(e)) => return Err(AgentError::Http(e.to_string())),
            }
        }
        Err(AgentError::Http("no connection".into()))
    }

    fn connect(&mut self) -> Result<SendRequest<Full<Bytes>>, AgentError> {
        let address = format!("{}:{}", self.host, self.port);
        let server_name = ServerName::try_from(self.host.clone())
            .map_err(|e| AgentError::Http(format!("{}: {e}", self.host)))?;
        let connector = self.connector.clone();
        let timeout = self.connect_timeout;
        let connecting = async move {
            let tcp = tokio::net::TcpStream::connect(&address)
                .await
                .map_err(|e| AgentError::Unreachable(format!("{address}: {e}")))?;
            let _ = tcp.set_nodelay(true);
            let tls = connector
                .connect(server_name, tcp)
                .await
                .map_err(|e| AgentError::Tls(format!("{address}: {e}")))?;
            let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
                .await
                .map_err(|e| AgentError::Http(e.to_string()))?;
            tokio::spawn(connection);
            Ok(sender)
        };
        self.runtime
            .block_on(async { tokio::time::timeout(timeout, connecting).await })
            .unwrap_or_else(|_| {
                Err(AgentError::Timeout(format!(
                    "{}:{}: not connected within {} seconds (http_connect_timeout)",
                    self.host,
                    self.port,
                    timeout.as_secs()
                )))
            })
    }
}

/// Why an exchange failed.
enum Failure {
    Http(hyper::Error),
    Timeout,
}

impl From<hyper::Error> for Failure {
    fn from(error: hyper::Error) -> Failure {
        Failure::Http(error)
    }
}

/// `work`, unless it takes longer than `limit`.
async fn within<T, E: Into<Failure>>(
    limit: Duration,
    work: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(limit, work).await {
        Ok(done) => done.map_err(Into::into),
        Err(_) => Err(Failure::Timeout),
    }
}
