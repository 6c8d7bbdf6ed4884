//! `marionette filebucket`: the contents saved before a run changed or
//! removed a file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

/// Which bucket: the run's own under the state directory, or a named
/// bucket's directory (a `filebucket` resource's `path`).
#[derive(clap::Args)]
pub(crate) struct Location {
    /// The directory of a bucket declared with `filebucket { NAME: path => DIR }`
    /// (the run's own, under `--vardir`, by default).
    #[arg(long)]
    bucket: Option<PathBuf>,
}

impl Location {
    fn open(&self) -> marionette_ral::Filebucket {
        match &self.bucket {
            Some(dir) => marionette_ral::Filebucket::new(dir),
            None => crate::apply::filebucket(&crate::apply::vardir()),
        }
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
}

pub(crate) fn run(command: FilebucketCommand) -> Result<ExitCode> {
    match command {
        FilebucketCommand::List { location } => {
            let bucket = location.open();
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
            let bucket = location.open();
            let bytes = bucket.get(&sum)?;
            std::io::stdout().write_all(&bytes)?;
        }
        FilebucketCommand::Restore {
            path,
            sum,
            location,
        } => {
            let bucket = location.open();
            bucket
                .restore(&path, &sum)
                .with_context(|| format!("Could not restore {}", path.display()))?;
            outln!("Notice: Restored {} from {sum}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
