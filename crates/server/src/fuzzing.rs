//! The server's request handling without a socket, for the random-input
//! tests (`marionette-fuzz server-request`): raw bytes in as one client's
//! HTTP/1.1 conversation, the server's bytes out. Everything after TLS is
//! the server's own code: hyper's parsing, admission on the head, routing,
//! the CA's, v3's and the mounts' handlers.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::http::Client;
use crate::server::{State, route};
use crate::{CompileRequest, Compiler, Config, Limits};

/// A server's state over a directory, and the clients requests come from.
pub struct Harness {
    runtime: tokio::runtime::Runtime,
    state: Arc<State>,
    clients: [Client; 4],
}

/// Answers every node an empty catalog, from one environment whose module
/// path is the harness's.
struct Empty {
    modules: PathBuf,
}

impl Compiler for Empty {
    fn compile(&self, request: &CompileRequest) -> Result<Vec<u8>, String> {
        Ok(
            serde_json::json!({"name": request.node, "version": 1, "resources": []})
                .to_string()
                .into_bytes(),
        )
    }

    fn environment_of(&self, _node: &str) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn modulepath(&self, environment: &str) -> Option<Vec<PathBuf>> {
        (environment == "production").then(|| vec![self.modules.clone()])
    }

    fn environments(&self) -> Vec<String> {
        vec!["production".into()]
    }
}

impl Harness {
    /// A server over `dir` (its CA made on first use, shared by later
    /// harnesses), with a module whose files and plugins the mounts serve.
    pub fn new(dir: &Path) -> Result<Harness, String> {
        let modules = dir.join("modules");
        for (path, text) in [
            ("mrtest/files/a.txt", "a\n"),
            ("mrtest/files/sub/b.txt", "b\n"),
            (
                "mrtest/lib/facter/mrtest.rb",
                "Facter.add(:mrtest) { setcode { 1 } }\n",
            ),
            ("mrtest/facts.d/mrtest.txt", "mrtest_external=1\n"),
        ] {
            let path = modules.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            std::fs::write(&path, text).map_err(|e| e.to_string())?;
        }
        let mut ca = marionette_ca::Settings::new("localhost");
        ca.key_length = 2048;
        let config = Config {
            bind: ([127, 0, 0, 1], 0).into(),
            certname: "localhost".into(),
            dns_alt_names: vec!["localhost".into()],
            cadir: dir.join("ca"),
            ssldir: dir.join("ssl"),
            vardir: dir.join("var"),
            ca,
            log_file: Some(crate::LogTarget::File(dir.join("server.log"))),
            storage: None,
            reports: Vec::new(),
            access_log: None,
            audit_log: None,
            report_processors: Vec::new(),
            ca_admins: Vec::new(),
            limits: Limits::default(),
            puppetdb: Default::default(),
            versioned_code: Default::default(),
        };
        let state = State::new(config, Arc::new(Empty { modules })).map_err(|e| e.to_string())?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let node = |ca_client: bool| marionette_ca::Identity {
            certname: "mrtest-fuzz".into(),
            extensions: Default::default(),
            ca_client,
            serial: vec![0x7f, 0xff],
        };
        Ok(Harness {
            runtime,
            state: Arc::new(state),
            clients: [
                Client {
                    identity: None,
                    peer: None,
                    plain: false,
                },
                Client {
                    identity: Some(node(false)),
                    peer: None,
                    plain: false,
                },
                Client {
                    identity: Some(node(true)),
                    peer: None,
                    plain: false,
                },
                // One on PuppetDB's plain-HTTP port.
                Client {
                    identity: None,
                    peer: None,
                    plain: true,
                },
            ],
        })
    }

    /// Serves `input` as what one client sends on one connection; the
    /// first byte chooses the client (none, a node, a CA administrator, one
    /// on PuppetDB's plain-HTTP port).
    /// Returns what the server wrote back.
    pub fn request(&self, input: &[u8]) -> Vec<u8> {
        let Some((who, bytes)) = input.split_first() else {
            return Vec::new();
        };
        let client = self.clients[usize::from(*who) % self.clients.len()].clone();
        let state = self.state.clone();
        self.runtime.block_on(async move {
            let (mut near, far) = tokio::io::duplex(1 << 16);
            let service = hyper::service::service_fn(move |request| {
                let (state, client) = (state.clone(), client.clone());
                async move {
                    Ok::<_, std::convert::Infallible>(route(&state, &client, request).await)
                }
            });
            let connection = tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    // The client has said all it will: its answers still
                    // go out.
                    .half_close(true)
                    .serve_connection(TokioIo::new(far), service),
            );
            let mut answer = Vec::new();
            let (mut reading, mut writing) = tokio::io::split(&mut near);
            let write = async {
                let _ = writing.write_all(bytes).await;
                let _ = writing.shutdown().await;
            };
            let read = reading.read_to_end(&mut answer);
            let _ = tokio::join!(write, read);
            let _ = connection.await;
            answer
        })
    }
}
