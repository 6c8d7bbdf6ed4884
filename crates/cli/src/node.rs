//! `marionette node`: what the server's storage knows of nodes, as
//! `puppet node` does with PuppetDB's terminus. `deactivate` stores a
//! `deactivate node` command for each node (its exported resources are
//! then collected by no one, and its data is purged after
//! `node-purge-ttl`); `status` tells whether each is active and when its
//! last catalog and facts came.

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
    let store = crate::storage::existing_store(
        &crate::server::vardir(env),
        args.storage_url,
        "marionette node",
    )?;
    let text = match args.command {
        NodeCommand::Deactivate { nodes } => deactivate(&store, &nodes)?,
        NodeCommand::Status { nodes } => status(&store, &nodes)?,
    };
    let mut out = std::io::stdout().lock();
    // A reader that went away takes nothing more.
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    Ok(ExitCode::SUCCESS)
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
