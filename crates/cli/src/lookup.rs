//! `marionette lookup`: Hiera data for a node, as `puppet lookup` prints
//! it (the value as YAML, JSON or text, or the explanation of the search).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use marionette_eval::{CompileOptions, LookupQuery, Stream};
use marionette_values::format::ruby_float;
use marionette_values::{PHash, Value};

#[derive(Args)]
pub(crate) struct LookupArgs {
    /// The keys to look up; the first found answers.
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    /// The node whose data to look up (defaults to this machine's name).
    #[arg(long, overrides_with = "node")]
    node: Option<String>,
    /// The node's facts, in JSON or YAML, instead of this machine's.
    #[arg(long)]
    facts: Option<PathBuf>,
    /// The merge strategy: first, unique, hash or deep.
    #[arg(long)]
    merge: Option<String>,
    /// With `--merge deep`: values with this prefix remove what they name.
    #[arg(long = "knock-out-prefix", allow_hyphen_values = true)]
    knock_out_prefix: Option<String>,
    /// With `--merge deep`: sort the merged arrays.
    #[arg(long = "sort-merged-arrays")]
    sort_merged_arrays: bool,
    /// With `--merge deep`: merge arrays of hashes element by element.
    #[arg(long = "merge-hash-arrays")]
    merge_hash_arrays: bool,
    /// The value when nothing is found.
    #[arg(long = "default")]
    default: Option<String>,
    /// A Puppet type the value must match.
    #[arg(long = "type")]
    value_type: Option<String>,
    /// Explain how the value was found, layer by layer.
    #[arg(long)]
    explain: bool,
    /// Explain how `lookup_options` were found.
    #[arg(long = "explain-options")]
    explain_options: bool,
    /// Compile the node's catalog first, so its variables are seen.
    #[arg(long)]
    compile: bool,
    /// How to print the value: yaml (the default), json or s.
    #[arg(long = "render-as", value_enum)]
    render_as: Option<Render>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Render {
    Yaml,
    Json,
    Pson,
    S,
}

pub(crate) fn run(args: LookupArgs, env: &crate::environment::EnvArgs) -> Result<ExitCode> {
    let only_options = args.explain_options && !args.explain;
    let mut keys = args.keys.clone();
    if keys.is_empty() {
        if only_options {
            keys.push("__global__".to_string());
        } else {
            bail!("Could not run: No keys were given to lookup.");
        }
    }
    if args.merge.as_deref() != Some("deep")
        && (args.knock_out_prefix.is_some() || args.sort_merged_arrays || args.merge_hash_arrays)
    {
        bail!(
            "Could not run: The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'\nRun 'puppet lookup --help' for more details"
        );
    }
    let merge = match args.merge.as_deref() {
        None => None,
        Some(name @ ("first" | "unique" | "hash")) => Some(Value::string(name)),
        Some("deep") => {
            let mut options = PHash::new();
            options.insert(Value::string("strategy"), Value::string("deep"));
            options.insert(
                Value::string("sort_merged_arrays"),
                Value::Boolean(args.sort_merged_arrays),
            );
            options.insert(
                Value::string("merge_hash_arrays"),
                Value::Boolean(args.merge_hash_arrays),
            );
            if let Some(prefix) = &args.knock_out_prefix {
                options.insert(
                    Value::string("knockout_prefix"),
                    Value::string(prefix.as_str()),
                );
            }
            Some(Value::hash(options))
        }
        Some(_) => bail!(
            "Could not run: The --merge option only accepts 'first', 'unique', 'hash', or 'deep'\nRun 'puppet lookup --help' for more details"
        ),
    };
    let manifests = match (args.compile, env.directory()) {
        (true, Some(dir)) => crate::catalog::read_manifests(&dir.join("manifests"))?,
        _ => Vec::new(),
    };
    let options = node_options(args.facts.as_deref(), args.node.as_deref(), manifests)?;
    let query = LookupQuery {
        keys,
        merge,
        value_type: args.value_type.clone(),
        default: args.default.as_deref().map(Value::string),
        explain: args.explain,
        explain_options: args.explain_options,
        compile: args.compile,
    };
    let answer = marionette_eval::lookup(&options, &query);
    // As `puppet lookup`, notices go to standard output before the value.
    for (stream, line) in &answer.lines {
        match stream {
            Stream::Stdout => crate::print_stdout(&format!("{line}\n")),
            Stream::Stderr => errln!("{line}"),
        }
    }
    if let Err(marionette_eval::LookupFailure::Loud(message)) = &answer.value {
        bail!("Could not run: {message}");
    }
    if let Some(explanation) = &answer.explanation {
        crate::print_stdout(explanation);
        return Ok(ExitCode::SUCCESS);
    }
    match answer.value {
        Ok(Some(value)) => {
            let value = redact(&value);
            let render = args.render_as.unwrap_or(Render::Yaml);
            let text = match render {
                Render::Json | Render::Pson => {
                    if let Some(bad) = non_finite(&value) {
                        bail!("Could not run: {bad} not allowed in JSON");
                    }
                    let data = marionette_catalog::to_data(&value);
                    format!("{}\n", serde_json::to_string(&data)?)
                }
                Render::S => format!("{}\n", to_s(&value)),
                Render::Yaml => marionette_hiera::yaml::emit::dump(&value),
            };
            crate::print_stdout(&text);
            Ok(ExitCode::SUCCESS)
        }
        // Nothing found ends quietly, as in Puppet.
        Ok(None) => Ok(ExitCode::FAILURE),
        // An error in the data or the configuration (an interpolation
        // cycle, malformed YAML, an eyaml failure, a broken hiera.yaml):
        // Puppet's lookup exits 1 without a word, which leaves the user
        // guessing; the message `apply` and `--explain` show is printed.
        Err(failure) => bail!("Could not run: {}", failure.message()),
    }
}

/// Sensitive values shown as Puppet shows them, never in clear.
fn redact(value: &Value) -> Value {
    match value {
        Value::Sensitive(_) => Value::string("Sensitive [value redacted]"),
        Value::Array(items) => Value::array(items.iter().map(redact).collect()),
        Value::Hash(hash) => {
            Value::hash(hash.iter().map(|(k, v)| (redact(k), redact(v))).collect())
        }
        other => other.clone(),
    }
}

/// The first float JSON cannot hold, named as Ruby names it.
fn non_finite(value: &Value) -> Option<&'static str> {
    match value {
        Value::Float(f) if f.is_nan() => Some("NaN"),
        Value::Float(f) if f.is_infinite() => Some(if *f > 0.0 { "Infinity" } else { "-Infinity" }),
        Value::Array(items) => items.iter().find_map(non_finite),
        Value::Hash(hash) => hash.values().find_map(non_finite),
        _ => None,
    }
}

/// Ruby's `to_s`, as `--render-as s` prints a value: collections in
/// their `inspect` form.
fn to_s(value: &Value) -> String {
    match value {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        Value::Sensitive(_) => "Sensitive [value redacted]".to_string(),
        Value::Float(f) => ruby_float(*f),
        Value::Integer(_) | Value::Boolean(_) | Value::Array(_) | Value::Hash(_) => {
            marionette_values::format::ruby_inspect(value)
        }
        other => marionette_values::format::to_s(other),
    }
}

/// The compile settings for a node outside a catalog's compile, as
/// `puppet lookup` and `puppet epp render` take them: the environment's
/// modules and Hiera, the node's facts from a file or this machine's (its
/// trusted name then its `clientcert` fact), and the main manifests when
/// the command compiles them first.
pub(crate) fn node_options(
    facts_file: Option<&std::path::Path>,
    node: Option<&str>,
    manifests: Vec<marionette_syntax::SourceFile>,
) -> Result<CompileOptions> {
    let environment = crate::environment::current();
    let mut lazy_facts = None;
    let facts = match facts_file {
        Some(path) => {
            marionette_facts::load_facts_file(path).map_err(|error| anyhow::anyhow!("{error}"))?
        }
        None => {
            let mut facts = crate::catalog::local_facts();
            lazy_facts = crate::custom_facts::on_demand(&mut facts);
            facts
        }
    };
    Ok(CompileOptions {
        manifests,
        modulepath: environment.modulepath.clone(),
        node_name: node.map_or_else(crate::host_name, str::to_string),
        environment: environment.name.clone(),
        facts,
        lazy_facts: lazy_facts.map(|f| f as _),
        strict_variables: false,
        server_name: crate::host_name(),
        local: facts_file.is_none(),
        agent_types: Vec::new(),
        external_functions: Some(crate::catalog::external_functions()),
        declared: None,
        hiera: Some(crate::environment::hiera()),
        ruby: Some(crate::environment::ruby()),
        trusted: None,
        classification: None,
        excerpts: false,
        exported: None,
    })
}
