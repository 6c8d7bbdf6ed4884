//! `marionette agent`: runs as Puppet's agent does, against `marionette
//! server` or Puppet's own server (`crates/agent`): bootstrap, pluginsync,
//! facts (with the synced ones), the catalog, the run, the report. The
//! synced plugins are kept as one module, `<vardir>/pluginsync/plugins`
//! (`lib/`, `facts.d/`), which the run loads like any module's. When the
//! server cannot give a catalog, the last one it gave is applied
//! (`usecacheonfailure`). The run lock is the one `apply` takes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use marionette_agent::{Agent, AgentError, Settings};
use marionette_catalog::Catalog;
use marionette_ral::Level;

use crate::apply::RunArgs;
use crate::environment::EnvArgs;

#[derive(Args, Debug)]
pub(crate) struct AgentArgs {
    /// Run once and exit (`-t` also implies it).
    #[arg(long)]
    onetime: bool,
    /// Keep running, once every --runinterval, instead of once.
    #[arg(long, conflicts_with = "onetime")]
    daemonize: bool,
    /// The server to ask.
    #[arg(long, default_value = "puppet")]
    server: String,
    /// The server's port.
    #[arg(long = "serverport", alias = "masterport", default_value_t = 8140)]
    port: u16,
    /// The agent's certificate name (default: this machine's name).
    #[arg(long)]
    certname: Option<String>,
    /// Time between asks for a certificate not signed yet; 0 gives up.
    #[arg(long, default_value = "120", value_name = "DURATION", value_parser = puppet_duration)]
    waitforcert: u64,
    /// The CA certificate's SHA-256 fingerprint to insist on at the first
    /// download.
    #[arg(long, value_name = "AA:BB:...")]
    ca_fingerprint: Option<String>,
    /// The size of the agent's RSA key, in bits.
    #[arg(long, default_value_t = 4096, value_name = "BITS")]
    keylength: usize,
    /// Time between runs with --daemonize.
    #[arg(long, default_value = "1800", value_name = "DURATION", value_parser = puppet_duration)]
    runinterval: u64,
    /// Wait a random time, up to --splaylimit, before each run, so a fleet
    /// started at once does not run in step.
    #[arg(long)]
    splay: bool,
    /// The longest --splay wait (default: --runinterval).
    #[arg(long, value_name = "DURATION", value_parser = puppet_duration)]
    splaylimit: Option<u64>,
    /// How long connecting to the server may take, before the run goes on
    /// to the cached catalog.
    #[arg(long, default_value = "120", value_name = "DURATION", value_parser = puppet_duration)]
    http_connect_timeout: u64,
    /// How long the server may keep the agent waiting for the next part
    /// of an answer.
    #[arg(long, default_value = "600", value_name = "DURATION", value_parser = puppet_duration)]
    http_read_timeout: u64,
    /// Do not apply the last catalog when the server cannot give one.
    #[arg(long)]
    no_usecacheonfailure: bool,
    /// Extension requests for the certificate request (`pp_role`, ...):
    /// Puppet's `csr_attributes.yaml`, read when the agent first asks for
    /// a certificate.
    #[arg(
        long,
        default_value = "/etc/puppetlabs/puppet/csr_attributes.yaml",
        value_name = "FILE"
    )]
    csr_attributes: PathBuf,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(args: AgentArgs, env: &EnvArgs) -> Result<ExitCode> {
    let vardir = crate::apply::vardir();
    let certname = args.certname.clone().unwrap_or_else(crate::host_name);
    let settings = Settings {
        server: args.server.clone(),
        port: args.port,
        certname: certname.clone(),
        ssldir: env.ssldir(),
        libdir: vardir.join("pluginsync/plugins/lib"),
        pluginfactdest: vardir.join("pluginsync/plugins/facts.d"),
        waitforcert: Duration::from_secs(args.waitforcert),
        ca_fingerprint: args.ca_fingerprint.clone(),
        keylength: args.keylength,
        extension_requests: extension_requests(&args.csr_attributes)?,
        http_connect_timeout: Duration::from_secs(args.http_connect_timeout.max(1)),
        http_read_timeout: Duration::from_secs(args.http_read_timeout.max(1)),
    };
    crate::environment::set_run_settings(vec![
        ("certname", certname.clone()),
        ("server", args.server.clone()),
        ("libdir", settings.libdir.display().to_string()),
    ]);
    let once = args.onetime || args.run.test || !args.daemonize;
    loop {
        splay(&args);
        let code = run_once(&args, env, &settings, &vardir)?;
        if once {
            return Ok(code);
        }
        std::thread::sleep(Duration::from_secs(args.runinterval.max(1)));
    }
}

/// A duration as Puppet's settings write it: seconds, or a number with
/// `s`, `m`, `h`, `d` or `y` (`30m`).
fn puppet_duration(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit: u64 = match &text[digits.len()..] {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "y" => 31_536_000,
        _ => 0,
    };
    digits
        .parse::<u64>()
        .ok()
        .filter(|_| unit > 0)
        .and_then(|n| n.checked_mul(unit))
        // Beyond a century, a wait is a mistake (and overflows clocks).
        .filter(|seconds| *seconds <= 100 * 31_536_000)
        .ok_or_else(|| {
            format!("'{text}' is not a duration: seconds, or a number with s, m, h, d or y (30m)")
        })
}

/// Waits a random time up to the splay limit, when asked: a time drawn
/// afresh for every run.
fn splay(args: &AgentArgs) {
    if !args.splay {
        return;
    }
    let limit = args.splaylimit.unwrap_or(args.runinterval).max(1);
    let mut bytes = [0u8; 8];
    let random = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
        .map(|()| u64::from_le_bytes(bytes))
        .unwrap_or_else(|_| u64::from(std::process::id()));
    std::thread::sleep(Duration::from_secs(random % limit));
}

fn run_once(
    args: &AgentArgs,
    env: &EnvArgs,
    settings: &Settings,
    vardir: &std::path::Path,
) -> Result<ExitCode> {
    let log = crate::apply::destinations(&args.run)?;
    let logger = log.logger();
    let held = crate::apply::take_lock()?;
    let mut agent = match Agent::connect(settings.clone()) {
        Ok(agent) => agent,
        Err(error) => {
            logger.log(Level::Err, "", &format!("Could not run: {error}"));
            return Ok(ExitCode::FAILURE);
        }
    };
    let requested = env
        .environment
        .clone()
        .unwrap_or_else(|| "production".into());
    let started = std::time::Instant::now();
    let fetched = fetch(&mut agent, &requested, vardir, &logger);
    let cache = vardir
        .join("client_data/catalog")
        .join(format!("{}.json", settings.certname));
    let (catalog, environment, facts) = match fetched {
        Ok(fetched) => {
            if let Some(parent) = cache.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("Could not create {}", parent.display()))?;
            }
            logger.log(
                Level::Info,
                "",
                &format!("Caching catalog for {}", settings.certname),
            );
            std::fs::write(&cache, &fetched.text)
                .with_context(|| format!("Could not write {}", cache.display()))?;
            (fetched.catalog, fetched.environment, fetched.facts)
        }
        Err(error) => {
            logger.log(
                Level::Err,
                "",
                &format!("Could not retrieve catalog from remote server: {error}"),
            );
            let cached = std::fs::read_to_string(&cache)
                .ok()
                .filter(|_| !args.no_usecacheonfailure)
                .and_then(|text| Catalog::from_json(&text).ok());
            let Some(catalog) = cached else {
                logger.log(Level::Err, "", "Could not retrieve catalog; skipping run");
                return Ok(ExitCode::FAILURE);
            };
            // The plugins synced last time apply the cached catalog's
            // types.
            use_synced_plugins(vardir);
            let environment = catalog.environment.clone();
            logger.log(
                Level::Notice,
                "",
                &format!("Using cached catalog from environment '{environment}'"),
            );
            let facts = crate::custom_facts::for_catalog(&catalog);
            (catalog, environment, facts)
        }
    };
    let config_retrieval = started.elapsed().as_secs_f64();
    logger.log(
        Level::Info,
        "",
        &format!("Applying configuration version '{}'", catalog.version),
    );
    // `puppet:///modules/...` sources are the server's: mirrored first,
    // then read by the run like a module's files.
    let mirror = vardir.join("sources");
    let sources = module_sources(&catalog);
    // A static catalog names its sources' metadata: only what differs is
    // fetched, at its code id.
    let inlined = match (&catalog.code_id, sources.is_empty()) {
        (Some(_), false) => std::fs::read_to_string(&cache)
            .map(|text| inlined_metadata(&text))
            .unwrap_or_default(),
        _ => std::collections::HashMap::new(),
    };
    for source in sources {
        let Some((module, path)) = source.split_once('/') else {
            continue;
        };
        let target = mirror.join(module).join("files").join(path);
        let mirrored = match (inlined.get(&source), &catalog.code_id) {
            (Some(entries), Some(code_id)) => {
                agent.mirror_inlined(&environment, code_id, entries, &target)
            }
            _ => agent.mirror(&environment, &format!("modules/{source}"), &target),
        };
        if let Err(error) = mirrored {
            logger.log(
                Level::Warning,
                "",
                &format!("Could not retrieve puppet:///modules/{source}: {error}"),
            );
        }
    }
    marionette_ral::served::set_modulepath(&catalog.environment, vec![mirror]);
    // Backups to `path => false` buckets go to the server, on a
    // connection of their own.
    let remote_filebucket = match agent.filebucket(&environment) {
        Ok(bucket) => Some(marionette_ral::Filebucket::remote(std::sync::Arc::new(
            ServerBucket(bucket),
        ))),
        Err(error) => {
            logger.log(
                Level::Warning,
                "",
                &format!("The server's filebucket cannot be reached: {error}"),
            );
            None
        }
    };
    let ran = crate::apply::run(
        &catalog,
        facts,
        &args.run,
        Some(config_retrieval),
        held,
        &log,
        remote_filebucket,
    )?;
    if let Some(report) = &ran.report
        && let Err(error) = agent.send_report(&environment, report)
    {
        logger.log(Level::Err, "", &format!("Could not send report: {error}"));
    }
    Ok(ran.code)
}

/// The server's bucket as the run's providers use it.
pub(crate) struct ServerBucket(pub(crate) marionette_agent::Bucket);

impl marionette_ral::RemoteBucket for ServerBucket {
    fn put(&self, sum: &str, bytes: &[u8], path: &str) -> std::io::Result<()> {
        self.0
            .put(sum, bytes, path)
            .map_err(|e| std::io::Error::other(format!("the server's filebucket: {e}")))
    }

    fn get(&self, sum: &str) -> std::io::Result<Vec<u8>> {
        self.0
            .get(sum)
            .map_err(|e| std::io::Error::other(format!("the server's filebucket: {e}")))
    }
}

/// The node's environment, the plugins synced for it, the facts with the
/// synced ones, and the catalog; again once if the catalog comes from
/// another environment than the agent asked in.
fn fetch(
    agent: &mut Agent,
    requested: &str,
    vardir: &std::path::Path,
    logger: &marionette_ral::Logger,
) -> Result<Fetched, AgentError> {
    let mut environment = agent.environment(requested)?;
    if environment != requested {
        logger.log(
            Level::Notice,
            "",
            &format!(
                "Local environment: '{requested}' doesn't match server specified node environment '{environment}', switching agent to '{environment}'."
            ),
        );
    }
    logger.log(
        Level::Info,
        "",
        &format!("Using environment '{environment}'"),
    );
    let mut switched = false;
    loop {
        logger.log(Level::Info, "", "Retrieving pluginfacts");
        logger.log(Level::Info, "", "Retrieving plugin");
        let synced = agent.pluginsync(&environment)?;
        for path in &synced.written {
            logger.log(
                Level::Notice,
                "",
                &format!("/File[{}]/ensure: defined content", path.display()),
            );
        }
        for path in &synced.removed {
            logger.log(
                Level::Notice,
                "",
                &format!("/File[{}]/ensure: removed", path.display()),
            );
        }
        use_synced_plugins(vardir);
        logger.log(Level::Info, "", "Loading facts");
        let mut facts = crate::catalog::all_local_facts();
        facts.insert("clientcert".into(), agent.certname().into());
        facts.insert(
            "clientversion".into(),
            marionette_eval::PUPPET_VERSION.into(),
        );
        facts.insert("clientnoop".into(), false.into());
        let text = agent.catalog(&environment, &facts)?;
        let catalog = Catalog::from_json(&String::from_utf8_lossy(&text)).map_err(|e| {
            AgentError::Http(format!("the server's catalog is not Puppet's JSON: {e}"))
        })?;
        let compiled_in = catalog.environment.clone();
        if compiled_in == environment || switched {
            return Ok(Fetched {
                text,
                catalog,
                environment,
                facts,
            });
        }
        switched = true;
        logger.log(
            Level::Notice,
            "",
            &format!(
                "Local environment: '{environment}' doesn't match server specified environment '{compiled_in}', restarting agent run with environment '{compiled_in}'"
            ),
        );
        environment = compiled_in;
    }
}

/// A catalog from the server (as sent, to cache, and read), the
/// environment it is of, and the facts it was compiled with.
struct Fetched {
    text: Vec<u8>,
    catalog: Catalog,
    environment: String,
    facts: serde_json::Map<String, serde_json::Value>,
}

/// The metadata a static catalog inlines, by source as `NAME/PATH`: a
/// recursive source's listing, or one file's (a directory managed without
/// recursion is left to a listing of its own, which the mirror needs).
fn inlined_metadata(text: &str) -> std::collections::HashMap<String, Vec<serde_json::Value>> {
    let mut found = std::collections::HashMap::new();
    let Ok(document) = serde_json::from_str::<serde_json::Value>(text) else {
        return found;
    };
    let key = |source: &str| {
        let rest = source.strip_prefix("puppet://")?;
        let path = rest.split_once('/')?.1.strip_prefix("modules/")?;
        Some(path.trim_end_matches('/').to_string())
    };
    let files = document.get("metadata").and_then(|m| m.as_object());
    for entry in files.into_iter().flat_map(|m| m.values()) {
        let source = entry.get("source").and_then(|s| s.as_str()).unwrap_or("");
        if entry.get("type").and_then(|t| t.as_str()) == Some("file")
            && let Some(key) = key(source)
        {
            found.insert(key, vec![entry.clone()]);
        }
    }
    let trees = document
        .get("recursive_metadata")
        .and_then(|m| m.as_object());
    for by_source in trees.into_iter().flat_map(|m| m.values()) {
        for (source, entries) in by_source.as_object().into_iter().flatten() {
            if let (Some(key), Some(entries)) = (key(source), entries.as_array()) {
                found.insert(key, entries.clone());
            }
        }
    }
    found
}

/// The `puppet:///modules/NAME/PATH` sources of a catalog's resources, as
/// `NAME/PATH`, each once: files', and those other types read through
/// Puppet's file serving (concat's fragments, archive's downloads).
fn module_sources(catalog: &Catalog) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for resource in &catalog.resources {
        let sources: Vec<&serde_json::Value> = match resource.parameters.get("source") {
            Some(serde_json::Value::Array(items)) => items.iter().collect(),
            Some(one) => vec![one],
            None => Vec::new(),
        };
        for source in sources.iter().filter_map(|s| s.as_str()) {
            // `puppet:///modules/...` or `puppet://SERVER/modules/...`.
            let Some(rest) = source.strip_prefix("puppet://") else {
                continue;
            };
            let path = rest.split_once('/').map_or("", |(_, path)| path);
            if let Some(module_path) = path.strip_prefix("modules/")
                && !module_path
                    .split('/')
                    .any(|part| part == ".." || part == ".")
                && !found.iter().any(|f| f == module_path)
            {
                found.push(module_path.trim_end_matches('/').to_string());
            }
        }
    }
    found
}

/// The `extension_requests` of a `csr_attributes.yaml`, when the file
/// exists; its `custom_attributes` are not sent.
fn extension_requests(path: &std::path::Path) -> Result<Vec<(String, String)>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let data = marionette_hiera::yaml::parse(&text)
        .map(|value| marionette_catalog::to_data(&value))
        .map_err(|e| anyhow::anyhow!("{}: {} (line {})", path.display(), e.problem, e.line))?;
    Ok(match data.get("extension_requests") {
        Some(serde_json::Value::Object(requests)) => requests
            .iter()
            .map(|(name, value)| {
                let text = match value {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (name.clone(), text)
            })
            .collect(),
        _ => Vec::new(),
    })
}

/// Makes the synced plugins the run's module path: a module of their own.
fn use_synced_plugins(vardir: &std::path::Path) {
    let args = EnvArgs {
        modulepath: Some(vardir.join("pluginsync").display().to_string()),
        environmentpath: Some(vardir.join("no-environments")),
        ..EnvArgs::default()
    };
    crate::environment::choose(&args, false);
}
