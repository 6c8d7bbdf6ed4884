//! `marionette filebucket`: the contents saved before a run changed or
//! removed a file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

/// Which bucket: the run's own under the state directory, a named
/// bucket's directory (a `filebucket` resource's `path`), or the server's.
#[derive(clap::Args)]
pub(crate) struct Location {
    /// The directory of a bucket declared with `filebucket { NAME: path => DIR }`
    /// (the run's own, under `--vardir`, by default).
    #[arg(long, conflicts_with_all = ["remote", "server"])]
    bucket: Option<PathBuf>,
    /// The local bucket (the default here; Puppet's own command uses the
    /// server's unless told `--local`).
    #[arg(long, short = 'l', conflicts_with_all = ["remote", "server"])]
    local: bool,
    /// The server's bucket (`file_bucket_file`), reached with the agent's
    /// certificate.
    #[arg(long, short = 'r')]
    remote: bool,
    /// The server whose bucket to use (implies --remote; default: the
    /// `server` setting, else `puppet`).
    #[arg(long, short = 's', value_name = "NAME")]
    server: Option<String>,
    /// The server's port.
    #[arg(long, default_value_t = 8140, value_name = "PORT")]
    serverport: u16,
    /// The agent's certificate name (default: this machine's name).
    #[arg(long)]
    certname: Option<String>,
}

/// An agent's settings for a command that only talks to a server (a
/// filebucket, a PuppetDB) with the certificate this machine already has:
/// Puppet's timeouts, no waiting for a certificate.
pub(crate) fn client_settings(
    server: String,
    port: u16,
    certname: Option<String>,
) -> marionette_agent::Settings {
    let env = crate::environment::global();
    let vardir = crate::apply::vardir();
    marionette_agent::Settings {
        server,
        port,
        certname: certname.unwrap_or_else(crate::host_name),
        ssldir: env.ssldir(),
        libdir: vardir.join("pluginsync/plugins/lib"),
        pluginfactdest: vardir.join("pluginsync/plugins/facts.d"),
        waitforcert: std::time::Duration::ZERO,
        ca_fingerprint: None,
        keylength: 4096,
        extension_requests: Vec::new(),
        http_connect_timeout: std::time::Duration::from_secs(120),
        http_read_timeout: std::time::Duration::from_secs(600),
    }
}

impl Location {
    fn open(&self) -> Result<marionette_ral::Filebucket> {
        if self.remote || self.server.is_some() {
            let settings = client_settings(
                self.server.clone().unwrap_or_else(|| "puppet".into()),
                self.serverport,
                self.certname.clone(),
            );
            let environment = crate::environment::current().name.clone();
            let bucket = marionette_agent::Agent::connect(settings)
                .and_then(|agent| agent.filebucket(&environment))
                .context("Could not reach the server's filebucket")?;
            return Ok(marionette_ral::Filebucket::remote(std::sync::Arc::new(
                crate::agent::ServerBucket(bucket),
            )));
        }
        Ok(match &self.bucket {
            Some(dir) => marionette_ral::Filebucket::new(dir),
            None => crate::apply::filebucket(&crate::apply::vardir()),
        })
    }
}

#[derive(Subcommand)]
pub(crate) enum FilebucketCommand {
    /// Every backup: time, sum and path, oldest first.
    List {
        #[command(flatten)]
        location: Location,
    },
    /// Print the contents saved under a sum.
    Get {
        sum: String,
        #[command(flatten)]
        location: Location,
    },
    /// Put saved contents back at a path (its current contents are saved
    /// first).
    Restore {
        path: PathBuf,
        sum: String,
        #[command(flatten)]
        location: Location,
    },
    /// Save files' contents: prints `FILE: SUM` for each.
    Backup {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        location: Location,
    },
    /// Show how two contents differ, each a sum in the bucket or a file,
    /// with `diff -u` as Puppet does (nothing when they are the same).
    Diff {
        a: String,
        b: String,
        #[command(flatten)]
        location: Location,
    },
}

pub(crate) fn run(command: FilebucketCommand) -> Result<ExitCode> {
    match command {
        FilebucketCommand::List { location } => {
            if location.remote || location.server.is_some() {
                anyhow::bail!("Listing remote file buckets is not allowed");
            }
            let bucket = location.open()?;
            let mut out = String::new();
            for entry in bucket.list().context("Could not read the filebucket")? {
                let time = marionette_values::Timestamp::from_seconds(entry.time as f64)
                    .map(|t| t.format("%Y-%m-%d %H:%M:%S"))
                    .unwrap_or_default();
                out.push_str(&format!("{} {time} {}\n", entry.sum, entry.path));
            }
            out!("{out}");
        }
        FilebucketCommand::Get { sum, location } => {
            let bucket = location.open()?;
            let bytes = bucket.get(&sum)?;
            std::io::stdout().write_all(&bytes)?;
        }
        FilebucketCommand::Restore {
            path,
            sum,
            location,
        } => {
            let bucket = location.open()?;
            bucket
                .restore(&path, &sum)
                .with_context(|| format!("Could not restore {}", path.display()))?;
            outln!("Notice: Restored {} from {sum}", path.display());
        }
        FilebucketCommand::Backup { files, location } => {
            let bucket = location.open()?;
            let mut failed = false;
            for file in files {
                // Puppet's words for a file it cannot back up, and on to
                // the next.
                if !file.exists() {
                    errln!("{}: no such file", file.display());
                    failed = true;
                    continue;
                }
                // Recorded by its absolute path, as Puppet's bucket keeps it.
                let recorded = std::path::absolute(&file).unwrap_or_else(|_| file.clone());
                match bucket.backup(&recorded) {
                    Ok(sum) => outln!("{}: {sum}", file.display()),
                    Err(e) => {
                        errln!("{}: cannot read file ({e})", file.display());
                        failed = true;
                    }
                }
            }
            if failed {
                return Ok(ExitCode::FAILURE);
            }
        }
        FilebucketCommand::Diff { a, b, location } => {
            let bucket = location.open()?;
            return diff(&bucket, &a, &b);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `diff -u` of two contents, each a file (when one exists at that path)
/// or a sum in the bucket, written to a temporary file to be compared.
fn diff(bucket: &marionette_ral::Filebucket, a: &str, b: &str) -> Result<ExitCode> {
    let scratch = tempfile::Builder::new()
        .prefix("marionette-filebucket")
        .tempdir()
        .context("Could not make a temporary directory")?;
    let side = |which: &str, given: &str| -> Result<PathBuf> {
        let path = PathBuf::from(given);
        if path.exists() {
            return Ok(path);
        }
        let bytes = bucket
            .get(given)
            .with_context(|| format!("Could not find {given} in the filebucket"))?;
        let copy = scratch.path().join(format!("{which}-{given}"));
        std::fs::write(&copy, bytes)
            .with_context(|| format!("Could not write {}", copy.display()))?;
        Ok(copy)
    };
    let (left, right) = (side("a", a)?, side("b", b)?);
    let output = std::process::Command::new("diff")
        .arg("-u")
        .arg(&left)
        .arg(&right)
        .output()
        .context("Could not run diff (apt-get install diffutils)")?;
    std::io::stdout().write_all(&output.stdout)?;
    // diff's status 1 means the contents differ, which is the answer.
    match output.status.code() {
        Some(0 | 1) => Ok(ExitCode::SUCCESS),
        _ => {
            std::io::stderr().write_all(&output.stderr)?;
            Ok(ExitCode::FAILURE)
        }
    }
}
