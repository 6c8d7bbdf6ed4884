//! A load test that stops by itself: `marionette-server-load` sends 300
//! catalog requests from 30 concurrent clients, each with a client
//! certificate, to a server whose compiler counts what it is asked; every
//! request must succeed, each compiled once, with the node's facts.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use common::{Counting, settings};

use marionette_server::{Config, Server};

mod common;

#[test]
fn three_hundred_catalogs_from_thirty_clients() {
    let dir = tempfile::Builder::new()
        .prefix("mrtest-load")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    let ca =
        marionette_ca::CertificateAuthority::open_or_create(&dir.join("ca"), settings()).unwrap();
    let agent = ca
        .issue_host_certificate("mrtest-load", &[], false)
        .unwrap();
    agent
        .write_to(&dir.join("agent.pem"), &dir.join("agent-key.pem"))
        .unwrap();
    drop(ca);
    let compiler = Arc::new(Counting {
        expect_node: "mrtest-load",
        ..Counting::default()
    });
    let server = Server::start(
        Config {
            bind: "127.0.0.1:0".parse().unwrap(),
            certname: "localhost".into(),
            dns_alt_names: vec!["localhost".into()],
            cadir: dir.join("ca"),
            ssldir: dir.join("ssl"),
            vardir: dir.join("var"),
            ca: settings(),
            log_file: Some(marionette_server::LogTarget::File(dir.join("server.log"))),
            access_log: None,
            audit_log: None,
            report_processors: Vec::new(),
            storage: None,
            reports: vec!["store".into()],
            ca_admins: Vec::new(),
            limits: marionette_server::Limits::default(),
            puppetdb: Default::default(),
            versioned_code: Default::default(),
        },
        compiler.clone(),
    )
    .expect("the server starts");
    std::fs::write(
        dir.join("facts.json"),
        r#"{"mrtest_fact": "present", "os": {"family": "Debian"}}"#,
    )
    .unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_marionette-server-load"))
        .args([
            "--host",
            "localhost",
            "--port",
            &server.address().port().to_string(),
        ])
        .args(["--ca", &path("ca/ca_crt.pem"), "--cert", &path("agent.pem")])
        .args(["--key", &path("agent-key.pem"), "--certname", "mrtest-load"])
        .args([
            "--facts",
            &path("facts.json"),
            "--requests",
            "300",
            "--clients",
            "30",
        ])
        .args(["--pid", &std::process::id().to_string()])
        .output()
        .expect("the load runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        said.starts_with("requests 300  clients 30  failures 0"),
        "{said}"
    );
    assert!(
        said.contains("catalogs/s ") && said.contains("server peak memory "),
        "{said}"
    );
    assert_eq!(compiler.compiles.load(Ordering::Relaxed), 300);
    assert_eq!(
        compiler.wrong.load(Ordering::Relaxed),
        0,
        "facts or trusted data lost"
    );
    server.stop();
}
