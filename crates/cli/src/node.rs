//! `marionette node`: what the server's storage knows of nodes, as
//! `puppet node` does with PuppetDB's terminus. `deactivate` stores a
//! `deactivate node` command for each node (its exported resources are
//! then collected by no one, and its data is purged after
//! `node-purge-ttl`); `status` tells whether each is active and when its
//! last catalog and facts came. Without storage of its own (no
//! `storage_url`, no database under the vardir), `deactivate` submits the
//! commands to the PuppetDB `puppetdb.conf`'s `server_urls` names, over
//! HTTPS with this machine's certificate.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use marionette_storage::{Paging, Store, commands};
use serde_json::Value;

use crate::environment::EnvArgs;

#[derive(Args)]
pub(crate) struct NodeArgs {
    /// The server's PostgreSQL database
    /// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE`, as its
    /// `storage_url`), instead of the SQLite file under its vardir.
    #[arg(long, value_name = "URL", global = true)]
    storage_url: Option<String>,
    /// The certificate presented to the PuppetDB of `puppetdb.conf`'s
    /// `server_urls` (default: the `certname` setting, else this
    /// machine's name).
    #[arg(long, value_name = "NAME", global = true)]
    certname: Option<String>,
    #[command(subcommand)]
    command: NodeCommand,
}

#[derive(Subcommand)]
enum NodeCommand {
    /// Deactivate nodes in the storage: their exported resources are no
    /// longer collected, and they are purged after node-purge-ttl.
    Deactivate {
        #[arg(required = true, value_name = "NODE")]
        nodes: Vec<String>,
    },
    /// Whether each node is active, and when its last catalog and facts
    /// came.
    Status {
        #[arg(required = true, value_name = "NODE")]
        nodes: Vec<String>,
    },
}

pub(crate) fn run(args: NodeArgs, env: &EnvArgs) -> Result<ExitCode> {
    let vardir = crate::server::vardir(env);
    let local = args.storage_url.is_some()
        || crate::config::user_setting("storage_url").is_some()
        || crate::storage::database(&vardir).exists();
    let text = match args.command {
        // Without storage of its own, the PuppetDB `puppetdb.conf` names,
        // as Puppet's face deactivates through its PuppetDB terminus.
        NodeCommand::Deactivate { nodes } if !local => match server_urls(env) {
            Some(urls) => deactivate_remotely(
                &urls,
                args.certname
                    .or_else(|| crate::config::user_setting("certname")),
                &nodes,
            )?,
            None => deactivate(&existing(&vardir, args.storage_url)?, &nodes)?,
        },
        NodeCommand::Deactivate { nodes } => {
            deactivate(&existing(&vardir, args.storage_url)?, &nodes)?
        }
        NodeCommand::Status { nodes } => status(&existing(&vardir, args.storage_url)?, &nodes)?,
    };
    let mut out = std::io::stdout().lock();
    // A reader that went away takes nothing more.
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    Ok(ExitCode::SUCCESS)
}

fn existing(vardir: &std::path::Path, url: Option<String>) -> Result<Store> {
    crate::storage::existing_store(vardir, url, "marionette node")
}

/// The PuppetDBs `$confdir/puppetdb.conf` names (`[main]`'s
/// `server_urls`, comma-separated, tried in order), when it names any.
fn server_urls(env: &EnvArgs) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(env.confdir().join("puppetdb.conf")).ok()?;
    let mut section = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_string();
        } else if let Some((key, value)) = line.split_once('=')
            && section == "main"
            && key.trim() == "server_urls"
        {
            let urls: Vec<String> = value
                .split(',')
                .map(|url| url.trim().trim_end_matches('/').to_string())
                .filter(|url| !url.is_empty())
                .collect();
            return (!urls.is_empty()).then_some(urls);
        }
    }
    None
}

/// Submits a `deactivate node` command for each node to the first of
/// `urls` that takes it, over HTTPS with this machine's certificate,
/// stopping at the first node none takes.
fn deactivate_remotely(
    urls: &[String],
    certname: Option<String>,
    nodes: &[String],
) -> Result<String> {
    let (name, version) = commands::DEACTIVATE_NODE;
    let mut lines = Vec::new();
    for node in nodes {
        let mut failures = Vec::new();
        let mut uuid = None;
        for url in urls {
            let Some((host, port)) = https_host_port(url) else {
                failures.push(format!("{url}: not an https:// URL"));
                continue;
            };
            let settings = crate::filebucket::client_settings(host, port, certname.clone());
            match marionette_agent::Agent::connect(settings).and_then(|mut agent| {
                agent.submit_command((name, version), node, &commands::deactivate_node(node))
            }) {
                Ok(given) => {
                    uuid = Some(given);
                    break;
                }
                Err(error) => failures.push(format!("{url}: {error}")),
            }
        }
        let Some(uuid) = uuid else {
            anyhow::bail!("Could not deactivate {node}: {}", failures.join("; "));
        };
        lines.push(format!("Submitted '{name}' for {node} with UUID {uuid}"));
    }
    Ok(lines.join("\n"))
}

/// The host and port of an `https://HOST[:PORT]` URL (PuppetDB's port,
/// 8081, by default).
fn https_host_port(url: &str) -> Option<(String, u16)> {
    let rest = url.strip_prefix("https://")?;
    let authority = rest.split('/').next()?;
    match authority.rsplit_once(':') {
        Some((host, port)) => Some((host.to_string(), port.parse().ok()?)),
        None => Some((authority.to_string(), 8081)),
    }
}

/// Stores a `deactivate node` command for each node in turn, stopping
/// at the first the storage refuses, as Puppet's face does.
fn deactivate(store: &Store, nodes: &[String]) -> Result<String> {
    let (name, version) = commands::DEACTIVATE_NODE;
    let mut lines = Vec::new();
    for node in nodes {
        store
            .submit(name, version, node, &commands::deactivate_node(node))
            .with_context(|| format!("Could not deactivate {node}"))?;
        lines.push(format!(
            "Submitted '{name}' for {node} with UUID {}",
            commands::receipt()
        ));
    }
    Ok(lines.join("\n"))
}

/// Each node's status, in Puppet's words, a paragraph each.
fn status(store: &Store, nodes: &[String]) -> Result<String> {
    let mut paragraphs = Vec::new();
    for node in nodes {
        // As PuppetDB answers `/pdb/query/v4/nodes/NODE`.
        let asked = marionette_storage::endpoint(&format!("/nodes/{node}"), None)?;
        let found = store
            .query(&asked.entity, asked.query.as_ref(), &Paging::default())
            .with_context(|| format!("Could not retrieve status for {node}"))?;
        let mut lines = vec![node.clone()];
        match found.first() {
            None => lines.push("No information known".into()),
            Some(status) => {
                let field = |key: &str| status.get(key).and_then(Value::as_str);
                lines.push(match (field("deactivated"), field("expired")) {
                    (Some(at), _) => format!("Deactivated at {at}"),
                    (None, Some(at)) => format!("Expired at {at}"),
                    (None, None) => "Currently active".into(),
                });
                lines.push(match field("catalog_timestamp") {
                    Some(at) => format!("Last catalog: {at}"),
                    None => "No catalog received".into(),
                });
                lines.push(match field("facts_timestamp") {
                    Some(at) => format!("Last facts: {at}"),
                    None => "No facts received".into(),
                });
            }
        }
        paragraphs.push(lines.join("\n"));
    }
    Ok(paragraphs.join("\n\n"))
}
