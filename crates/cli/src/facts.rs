//! `marionette facts`: the facts of this machine, as `facter` prints them.
//!
//! Exit status: as `facter` does, 1 when an external or custom fact failed
//! (every other fact is still printed), 0 otherwise; clap's usage errors
//! exit with 2.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use marionette_facts::{Options, format};
use serde_json::{Map, Value};

#[derive(clap::Args)]
pub(crate) struct FactsArgs {
    /// Facts to print, by name or dotted path (`os.family`,
    /// `processors.models.0`); all facts when none is given.
    queries: Vec<String>,
    /// Print JSON (what is printed for all facts in a pipe; on a terminal,
    /// all facts are printed in Facter's `name => value` form).
    #[arg(short = 'j', long, conflicts_with = "yaml")]
    json: bool,
    /// Print YAML.
    #[arg(short = 'y', long)]
    yaml: bool,
    /// Include the legacy flat facts (`osfamily`, `ipaddress_eth0`, ...)
    /// when printing all facts. Queries find them regardless.
    #[arg(long)]
    show_legacy: bool,
    /// Show on stderr how long each group of facts took.
    #[arg(short = 't', long)]
    timing: bool,
    /// Do not read external facts.
    #[arg(long = "no-external", visible_alias = "no-external-facts")]
    no_external: bool,
    /// A directory of external facts; may be repeated. When given, the
    /// default directories (/etc/marionette/facts.d,
    /// /etc/puppetlabs/facter/facts.d, ...) are not searched, as with facter.
    #[arg(long = "external-dir", value_name = "DIR")]
    external_dirs: Vec<PathBuf>,
    /// How long an executable external fact may run before it is killed.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    external_timeout: Duration,
    /// Also resolve the custom facts of the environment's modules
    /// (`lib/facter/*.rb`), as `facter -p` loads Puppet's.
    #[arg(short = 'p', long)]
    puppet: bool,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("'{text}' is not a usable number of seconds"))
}

pub(crate) fn run(args: FactsArgs) -> Result<ExitCode> {
    let mut options = Options {
        external: !args.no_external,
        external_timeout: args.external_timeout,
        ..crate::catalog::fact_options()
    };
    if !args.external_dirs.is_empty() {
        // As with facter, directories given replace the machine's default
        // ones; the environment's modules still contribute theirs.
        let mut dirs = crate::environment::plugins().fact_dirs();
        dirs.extend(args.external_dirs.iter().cloned());
        options.external_dirs = dirs;
    }
    let mut collection = marionette_facts::collect(&options);
    if args.puppet {
        let mut all = collection.with_legacy();
        let known: std::collections::HashSet<String> = all.keys().cloned().collect();
        crate::custom_facts::resolve_all(&mut all);
        for (name, value) in all {
            if !known.contains(&name) {
                collection.facts.insert(name, value);
            }
        }
    }

    let text = if args.queries.is_empty() {
        let facts = if args.show_legacy {
            collection.with_legacy()
        } else {
            collection.facts.clone()
        };
        if args.yaml {
            format::to_yaml(&facts)
        } else if args.json || !std::io::stdout().is_terminal() {
            format::to_json(&Value::Object(facts))
        } else {
            // Facter's own form, for a person: `name => value`, sorted.
            let all: Vec<(String, Option<Value>)> = facts
                .into_iter()
                .map(|(name, value)| (name, Some(value)))
                .collect();
            format::to_legacy_multiple(&all)
        }
    } else {
        let found: Vec<(String, Option<Value>)> = args
            .queries
            .iter()
            .map(|query| (query.clone(), collection.value(query).cloned()))
            .collect();
        if args.json || args.yaml {
            let mut map: Map<String, Value> = found
                .into_iter()
                .map(|(query, value)| (query, value.unwrap_or(Value::Null)))
                .collect();
            map.sort_keys();
            if args.yaml {
                format::to_yaml(&map)
            } else {
                format::to_json(&Value::Object(map))
            }
        } else if let [(_, value)] = found.as_slice() {
            format::to_legacy_single(value.as_ref())
        } else {
            format::to_legacy_multiple(&found)
        }
    };
    if text.ends_with('\n') {
        out!("{text}");
    } else {
        outln!("{text}");
    }

    if args.timing {
        for timing in &collection.timings {
            errln!(
                "fact group '{}', took: ({:.6}) seconds",
                timing.group,
                timing.elapsed.as_secs_f64()
            );
        }
    }
    let mut failed = false;
    for error in &collection.errors {
        if error.is_warning() {
            errln!("Warning: {error}");
        } else {
            failed = true;
            errln!("Error: {error}");
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
