//! A PostgreSQL 15 cluster of the test's own (Debian's `postgresql-15`),
//! in a temporary directory, listening on a free port of the loopback
//! only, with trust authentication; stopped and removed when dropped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = "/usr/lib/postgresql/15/bin";

pub(crate) struct Cluster {
    dir: tempfile::TempDir,
    pub(crate) port: u16,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Runs one of PostgreSQL's programs, as `postgres` when the test runs
/// as root (PostgreSQL refuses root).
fn run(program: &str, args: &[&str]) -> std::process::Output {
    let path = Path::new(BIN).join(program);
    let output = if is_root() {
        let mut line = shell_quote(&path.display().to_string());
        for arg in args {
            line.push(' ');
            line.push_str(&shell_quote(arg));
        }
        Command::new("su")
            .args(["postgres", "-s", "/bin/sh", "-c", &line])
            .output()
    } else {
        Command::new(&path).args(args).output()
    };
    let output = output.unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        output.status.success(),
        "{program} {args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Cluster {
    /// A new cluster, started; fails loudly when PostgreSQL 15 is not
    /// installed.
    pub(crate) fn start() -> Cluster {
        assert!(
            Path::new(BIN).join("initdb").is_file(),
            "PostgreSQL 15 is missing: apt-get install -y postgresql-15"
        );
        let dir = tempfile::Builder::new()
            .prefix("mrtest-postgres")
            .tempdir()
            .unwrap();
        if is_root() {
            let status = Command::new("chown")
                .args(["-R", "postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success());
        }
        let data = dir.path().join("data");
        let data_text = data.display().to_string();
        run(
            "initdb",
            &[
                "-D",
                &data_text,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ],
        );
        let cluster = Cluster {
            port: free_port(),
            dir,
        };
        cluster.start_again();
        run(
            "psql",
            &[
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                &cluster.port.to_string(),
                "-U",
                "postgres",
                "-c",
                "CREATE DATABASE mrtest",
            ],
        );
        cluster
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The URL of its database `mrtest`.
    pub(crate) fn url(&self) -> String {
        format!("postgresql://postgres@127.0.0.1:{}/mrtest", self.port)
    }

    /// Stops the server (the database is then down).
    pub(crate) fn stop(&self) {
        run(
            "pg_ctl",
            &[
                "-D",
                &self.data().display().to_string(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }

    /// Starts the server again, on the same port.
    pub(crate) fn start_again(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        run(
            "pg_ctl",
            &[
                "-D",
                &self.data().display().to_string(),
                "-l",
                &self.dir.path().join("server.log").display().to_string(),
                "-o",
                &options,
                "-w",
                "start",
            ],
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let path = Path::new(BIN).join("pg_ctl");
        let data = self.data().display().to_string();
        let _ = if is_root() {
            Command::new("su")
                .args([
                    "postgres",
                    "-s",
                    "/bin/sh",
                    "-c",
                    &format!(
                        "{} -D {} -m immediate stop",
                        shell_quote(&path.display().to_string()),
                        shell_quote(&data)
                    ),
                ])
                .output()
        } else {
            Command::new(path)
                .args(["-D", &data, "-m", "immediate", "stop"])
                .output()
        };
    }
}
