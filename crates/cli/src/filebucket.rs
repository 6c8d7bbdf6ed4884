//! `marionette filebucket`: the contents saved before a run changed or
//! removed a file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

#[derive(Subcommand)]
pub(crate) enum FilebucketCommand {
    /// Every backup: time, sum and path, oldest first.
    List {
        #[arg(long)]
        vardir: Option<PathBuf>,
    },
    /// Print the contents saved under a sum.
    Get {
        sum: String,
        #[arg(long)]
        vardir: Option<PathBuf>,
    },
    /// Put saved contents back at a path (its current contents are saved
    /// first).
    Restore {
        path: PathBuf,
        sum: String,
        #[arg(long)]
        vardir: Option<PathBuf>,
    },
}

pub(crate) fn run(command: FilebucketCommand) -> Result<ExitCode> {
    match command {
        FilebucketCommand::List { vardir } => {
            let bucket = crate::apply::filebucket(&crate::apply::vardir(vardir.as_deref()));
            let mut out = String::new();
            for entry in bucket.list().context("Could not read the filebucket")? {
                let time = marionette_values::Timestamp::from_seconds(entry.time as f64)
                    .map(|t| t.format("%Y-%m-%d %H:%M:%S"))
                    .unwrap_or_default();
                out.push_str(&format!("{} {time} {}\n", entry.sum, entry.path));
            }
            print!("{out}");
        }
        FilebucketCommand::Get { sum, vardir } => {
            let bucket = crate::apply::filebucket(&crate::apply::vardir(vardir.as_deref()));
            let bytes = bucket.get(&sum)?;
            std::io::stdout().write_all(&bytes)?;
        }
        FilebucketCommand::Restore { path, sum, vardir } => {
            let bucket = crate::apply::filebucket(&crate::apply::vardir(vardir.as_deref()));
            bucket
                .restore(&path, &sum)
                .with_context(|| format!("Could not restore {}", path.display()))?;
            println!("Notice: Restored {} from {sum}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
