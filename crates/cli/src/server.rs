//! `marionette server`: serves agents (`crates/server`), compiling each
//! node's catalog in the environment it asks for. An environment's
//! plugins, Hiera data and Ruby host are made on its first compile and
//! kept for the life of the process.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use clap::Args;
use marionette_eval::CompileOptions;
use marionette_server::{CompileRequest, Compiler, Config};

use crate::environment::EnvArgs;

#[derive(Args, Debug)]
pub(crate) struct ServerArgs {
    /// The address and port to listen on.
    #[arg(long, default_value = "0.0.0.0:8140")]
    bind: SocketAddr,
    /// The server's certificate name (default: this machine's name).
    #[arg(long)]
    certname: Option<String>,
    /// Other names agents reach the server by, for its certificate.
    #[arg(long, value_delimiter = ',', value_name = "NAME[,NAME]")]
    dns_alt_names: Vec<String>,
    /// The certificate authority's directory (default: `ca` of the state
    /// directory).
    #[arg(long, value_name = "DIR")]
    cadir: Option<PathBuf>,
    /// Sign requests as they come: `true`, `false`, or a file (a list of
    /// names and globs, or an executable that decides), as Puppet's
    /// `autosign` setting.
    #[arg(long, default_value = "false")]
    autosign: String,
    /// The size of new RSA keys, in bits.
    #[arg(long, default_value_t = 4096, value_name = "BITS")]
    keylength: usize,
    /// The main manifest of every environment, instead of each one's
    /// `manifests` directory (Puppet's `manifest` setting).
    #[arg(long, value_name = "PATH")]
    manifest: Option<PathBuf>,
    /// An external node classifier: run with a node's name, it prints
    /// YAML with the node's `classes`, `parameters` and `environment`, as
    /// Puppet's `external_nodes` setting.
    #[arg(long, value_name = "COMMAND")]
    external_nodes: Option<PathBuf>,
    /// How long an environment's plugins, data and Ruby host are kept
    /// before they are read again: seconds, or `unlimited` (Puppet's
    /// `environment_timeout`; main manifests are read at every compile).
    #[arg(long, default_value = "unlimited", value_name = "SECONDS")]
    environment_timeout: String,
    /// Where the server's log goes instead of standard error: a file it
    /// is appended to, `syslog` (`/dev/log`) or `journald` (the journal's
    /// own socket, which keeps each line's level and name), either
    /// optionally followed by `:SOCKET`, the service's socket elsewhere.
    #[arg(long, value_name = "FILE|syslog|journald")]
    logdest: Option<marionette_server::LogTarget>,
    /// A file (or `syslog`, `journald`, as `--logdest`) that gets one
    /// line per request, in puppetserver's access log format (the
    /// client's certificate name as its user). `SIGHUP` reopens it and the
    /// others, after a rotation.
    #[arg(long, value_name = "FILE|syslog|journald")]
    access_log: Option<marionette_server::LogTarget>,
    /// Makes catalogs static, as puppetserver's `code-id-command` does:
    /// the program, given an environment's name, prints its code's
    /// version, which catalogs carry with the metadata of the module files
    /// their `puppet:///modules/...` sources name (agents then ask for no
    /// metadata).
    #[arg(long, value_name = "PROGRAM", requires = "code_content_command")]
    code_id_command: Option<PathBuf>,
    /// Serves files at the version a static catalog names, as
    /// puppetserver's `code-content-command`: the program, given the
    /// environment, the code id and the file's path within the
    /// environment, prints its content.
    #[arg(long, value_name = "PROGRAM")]
    code_content_command: Option<PathBuf>,
    /// A file (or `syslog`, `journald`, as `--logdest`, filed as
    /// security messages: `authpriv`) that gets a line for each action on
    /// the certificate authority: who signed, revoked or cleaned which
    /// certificate (default: the server's log).
    #[arg(long, value_name = "FILE|syslog|journald")]
    audit_log: Option<marionette_server::LogTarget>,
    /// Keep each node's facts, catalog and exported resources in the
    /// storage (an SQLite database under the vardir), collect exported
    /// resources from it, and answer PuppetDB's API (Puppet's
    /// `storeconfigs`).
    #[arg(long)]
    storeconfigs: bool,
    #[command(flatten)]
    puppetdb: crate::storage::PuppetDbArgs,
    /// Where storeconfigs are kept: `puppetdb`, the only backend Puppet 7
    /// has, is this server's own storage.
    #[arg(long, default_value = "puppetdb", value_name = "BACKEND")]
    storeconfigs_backend: String,
    /// What is done with the reports agents send, as Puppet's `reports`
    /// setting: `store` keeps each as a file under the vardir,
    /// `puppetdb` in the storage, `log` writes its messages to the
    /// server's log, `http` sends it to --reporturl, `none` nothing.
    #[arg(
        long,
        default_value = "store",
        value_delimiter = ',',
        value_name = "NAME[,NAME]"
    )]
    reports: Vec<String>,
    /// Where the `http` report processor sends reports, as YAML (Puppet's
    /// `reporturl`).
    #[arg(
        long,
        default_value = "http://localhost:3000/reports/upload",
        value_name = "URL"
    )]
    reporturl: String,
    /// Certificates that may administer the CA over the API besides those
    /// with `pp_cli_auth` (as puppetserver's `auth.conf` allowlist).
    #[arg(long, value_delimiter = ',', value_name = "NAME[,NAME]")]
    ca_admins: Vec<String>,
    /// Connections served at once; more wait to be accepted (default:
    /// 1,000, or fewer when the descriptor limit cannot hold them).
    #[arg(long, value_name = "COUNT")]
    max_connections: Option<usize>,
    /// Seconds a connection may stay silent (waiting for a request, or
    /// between parts of its body) before it is closed, as puppetserver's
    /// `idle-timeout-milliseconds`.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    idle_timeout: u64,
    /// Seconds a TLS handshake may take.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    handshake_timeout: u64,
    /// The largest facts upload taken, in MiB (a catalog request's form,
    /// or `puppet facts upload`).
    #[arg(long, default_value_t = 32, value_name = "MIB")]
    max_facts_size: usize,
    /// The largest report taken, in MiB.
    #[arg(long, default_value_t = 256, value_name = "MIB")]
    max_report_size: usize,
}

/// Raises the soft limit on open descriptors to the hard one, as servers
/// do (each agent's connection holds one), and says how many connections
/// fit beside what the server opens itself (modules, the storage, Ruby
/// hosts).
fn connections_that_fit(wanted: Option<usize>) -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given.
    let soft = unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return wanted.unwrap_or(1000);
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
        limit.rlim_cur
    };
    let reserve = 256;
    let fits = usize::try_from(soft.saturating_sub(reserve)).unwrap_or(usize::MAX);
    wanted.unwrap_or_else(|| fits.clamp(16, 1000))
}

pub(crate) fn run(args: ServerArgs, env: &EnvArgs) -> Result<ExitCode> {
    let state = crate::apply::vardir();
    let certname = args.certname.clone().unwrap_or_else(crate::host_name);
    let mut ca = marionette_ca::Settings::new(&certname);
    ca.key_length = args.keylength;
    ca.autosign = match args.autosign.as_str() {
        "true" => marionette_ca::Autosign::All,
        "false" => marionette_ca::Autosign::Off,
        path => marionette_ca::Autosign::Path(PathBuf::from(path)),
    };
    let vardir = vardir(env);
    crate::storage::check_backend(&args.storeconfigs_backend)?;
    let reports: Vec<String> = args
        .reports
        .iter()
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty() && r != "none")
        .collect();
    if let Some(unknown) = reports
        .iter()
        .find(|r| !matches!(r.as_str(), "store" | "puppetdb" | "log" | "http"))
    {
        anyhow::bail!(
            "--reports: '{unknown}' is not a report processor (store, puppetdb, log, http or none)"
        );
    }
    if reports.iter().any(|r| r == "puppetdb") && !args.storeconfigs {
        anyhow::bail!("--reports: 'puppetdb' needs the storage: set storeconfigs = true");
    }
    let allowlist = args.puppetdb.allowlist()?;
    let storage = if args.storeconfigs {
        let storage = Arc::new(crate::storage::Storeconfigs::open(
            &vardir,
            &certname,
            args.puppetdb.storage_url.as_deref(),
        )?);
        args.puppetdb.collect_garbage(&storage.store)?;
        Some(storage)
    } else {
        None
    };
    let config = Config {
        bind: args.bind,
        certname,
        dns_alt_names: args.dns_alt_names,
        cadir: args.cadir.unwrap_or_else(|| state.join("ca")),
        ssldir: env.ssldir(),
        vardir,
        ca,
        log_file: args.logdest,
        access_log: args.access_log,
        audit_log: args.audit_log,
        storage: storage.as_ref().map(|s| s.store.clone()),
        reports,
        report_processors: vec![
            Arc::new(crate::reports::Log),
            Arc::new(crate::reports::Http {
                url: args.reporturl,
            }),
        ],
        ca_admins: args.ca_admins,
        limits: marionette_server::Limits {
            max_connections: connections_that_fit(args.max_connections),
            handshake_timeout: std::time::Duration::from_secs(args.handshake_timeout.max(1)),
            idle_timeout: std::time::Duration::from_secs(args.idle_timeout.max(1)),
            max_facts_bytes: args.max_facts_size.saturating_mul(1024 * 1024),
            max_report_bytes: args.max_report_size.saturating_mul(1024 * 1024),
        },
        puppetdb: marionette_server::PuppetDbAccess {
            allowlist,
            only: false,
            plain_bind: args.puppetdb.plain_bind(),
            retention: args.puppetdb.retention()?,
        },
        versioned_code: marionette_server::VersionedCode {
            code_id_command: args.code_id_command,
            code_content_command: args.code_content_command,
        },
    };
    let timeout = match args.environment_timeout.as_str() {
        "unlimited" => None,
        seconds => Some(std::time::Duration::from_secs(
            seconds.parse().with_context(|| {
                format!("--environment-timeout: '{seconds}' is neither seconds nor 'unlimited'")
            })?,
        )),
    };
    let environments = Arc::new(Environments {
        args: env.clone(),
        manifest: args.manifest,
        classifier: args.external_nodes,
        storage,
        timeout,
        known: Mutex::default(),
    });
    // The `http` report processor trusts what Puppet's does for an
    // `https://` reporturl: the system's bundle and this server's CA.
    marionette_types::web::set_trust(marionette_types::web::Trust {
        trusted: vec![config.cadir.join("ca_crt.pem")],
        certname: config.certname.clone(),
        certificate: config.ssldir.join(format!("certs/{}.pem", config.certname)),
        private_key: config
            .ssldir
            .join(format!("private_keys/{}.pem", config.certname)),
        logger: Default::default(),
    });
    let server = marionette_server::Server::start(config, environments)
        .context("could not start the server")?;
    errln!("Notice: Listening on {}", server.address());
    if let Some(plain) = server.plain_address() {
        errln!("Notice: Answering PuppetDB's API over plain HTTP on {plain}");
    }
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// Where reports and facts agents send are kept: the `--vardir` given,
/// else `server` of the state directory, apart from what `apply` keeps.
pub(crate) fn vardir(env: &EnvArgs) -> PathBuf {
    env.vardir
        .clone()
        .unwrap_or_else(|| crate::apply::vardir().join("server"))
}

/// The environments the server compiles in.
struct Environments {
    args: EnvArgs,
    manifest: Option<PathBuf>,
    classifier: Option<PathBuf>,
    /// Storeconfigs: where facts, catalogs and exports are kept.
    storage: Option<Arc<crate::storage::Storeconfigs>>,
    /// How long a made environment is used (`None`: for ever).
    timeout: Option<std::time::Duration>,
    /// Each environment made, with when it was made.
    known: Mutex<HashMap<String, (std::time::Instant, Arc<Environment>)>>,
}

/// What an environment's compiles share, and the arguments naming it.
struct Environment {
    args: EnvArgs,
    shared: crate::environment::Shared,
}

impl Environments {
    /// The arguments that name one environment.
    fn named(&self, name: &str) -> EnvArgs {
        let mut args = self.args.clone();
        args.environment = Some(name.to_string());
        args
    }

    /// Whether the environment exists: a directory of the environment
    /// path, or `production` when modules or a manifest are given
    /// directly.
    fn exists(&self, name: &str) -> bool {
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        valid
            && (self.args.environmentpath().join(name).is_dir()
                || (name == "production"
                    && (self.args.modulepath.is_some() || self.manifest.is_some())))
    }

    fn environment(&self, name: &str) -> Option<Arc<Environment>> {
        if !self.exists(name) {
            return None;
        }
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((made, found)) = known.get(name)
            && self.timeout.is_none_or(|timeout| made.elapsed() < timeout)
        {
            return Some(found.clone());
        }
        let args = self.named(name);
        let made = Arc::new(Environment {
            shared: crate::environment::Shared::make(
                args.resolve(),
                crate::environment::hiera_settings(&args),
            ),
            args,
        });
        known.insert(name.to_string(), (std::time::Instant::now(), made.clone()));
        Some(made)
    }
}

impl Environments {
    /// What the external node classifier says of a node, if there is one.
    fn classify(&self, node: &str) -> Result<Option<Classified>, String> {
        let Some(command) = &self.classifier else {
            return Ok(None);
        };
        let failed = |detail: String| {
            format!(
                "Failed when searching for node {node}: Failed to find {node} via exec: {detail}"
            )
        };
        // The node's name is an argument, never part of a shell command.
        let output = std::process::Command::new(command)
            .arg(node)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| failed(format!("Could not run {}: {e}", command.display())))?;
        if !output.status.success() {
            return Err(failed(format!(
                "Execution of '{} {node}' returned {}: {}",
                command.display(),
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        let data = marionette_hiera::yaml::parse(&text)
            .map(|value| marionette_catalog::to_data(&value))
            .map_err(|e| failed(format!("Could not parse YAML: {}", e.problem)))?;
        classified(&data).map(Some).map_err(failed)
    }
}

/// An external node classifier's answer.
struct Classified {
    environment: Option<String>,
    classification: marionette_eval::Classification,
}

/// Reads a classifier's YAML: `classes` as a list of names or a hash of
/// names to parameters, `parameters`, `environment`. Names are checked,
/// since they become classes and variables.
fn classified(data: &serde_json::Value) -> Result<Classified, String> {
    let class_name = |name: &str| {
        let name = name.strip_prefix("::").unwrap_or(name);
        !name.is_empty()
            && name.split("::").all(|segment| {
                segment.starts_with(|c: char| c.is_ascii_lowercase())
                    && segment
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
    };
    let mut classification = marionette_eval::Classification::default();
    match data.get("classes") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Array(names)) => {
            for name in names {
                let name = name.as_str().ok_or("a class name is not a string")?;
                classification
                    .classes
                    .push((name.to_string(), Default::default()));
            }
        }
        Some(serde_json::Value::Object(classes)) => {
            for (name, parameters) in classes {
                let parameters = match parameters {
                    serde_json::Value::Object(map) => map.clone(),
                    serde_json::Value::Null => Default::default(),
                    _ => return Err(format!("the parameters of class {name} are not a hash")),
                };
                classification.classes.push((name.clone(), parameters));
            }
        }
        Some(_) => return Err("classes must be a list or a hash".into()),
    }
    if let Some(bad) = classification.classes.iter().find(|(n, _)| !class_name(n)) {
        return Err(format!("'{}' is not a class name", bad.0));
    }
    match data.get("parameters") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(parameters)) => {
            for (name, value) in parameters {
                let valid = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    return Err(format!("'{name}' is not a variable name"));
                }
                classification
                    .parameters
                    .insert(name.clone(), value.clone());
            }
        }
        Some(_) => return Err("parameters must be a hash".into()),
    }
    let environment = match data.get("environment") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(name)) => Some(name.clone()),
        Some(_) => return Err("environment must be a string".into()),
    };
    Ok(Classified {
        environment,
        classification,
    })
}

impl Compiler for Environments {
    fn environment_of(&self, node: &str) -> Result<Option<String>, String> {
        Ok(self.classify(node)?.and_then(|c| c.environment))
    }

    fn compile(&self, request: &CompileRequest) -> Result<Vec<u8>, String> {
        let classified = self.classify(&request.node)?;
        let environment = self
            .environment(&request.environment)
            .ok_or_else(|| format!("Could not find environment '{}'", request.environment))?;
        let manifest = self
            .manifest
            .clone()
            .or_else(|| environment.args.directory().map(|d| d.join("manifests")))
            .ok_or_else(|| "No main manifest".to_string())?;
        // An environment without a main manifest compiles what the
        // classifier gives, as Puppet does.
        let manifests = if manifest.exists() {
            crate::catalog::read_manifests(&manifest).map_err(|e| format!("{e:#}"))?
        } else {
            Vec::new()
        };
        let manifests = if manifests.is_empty() {
            vec![marionette_diagnostics::SourceFile::new(
                manifest.display().to_string(),
                "",
            )]
        } else {
            manifests
        };
        if let Some(storage) = &self.storage {
            storage.store_facts(
                &request.node,
                &request.environment,
                &request.facts,
                &request.trusted,
            )?;
        }
        let options = CompileOptions {
            classification: classified.map(|c| c.classification),
            exported: self
                .storage
                .clone()
                .map(|s| s as Arc<dyn marionette_eval::ExportedResources>),
            ..environment.shared.options(
                manifests,
                &request.node,
                &request.environment,
                request.facts.clone(),
                request.trusted.clone(),
            )
        };
        let compiled = marionette_eval::compile(&options);
        let Some(catalog) = &compiled.catalog else {
            let errors: Vec<&str> = compiled
                .lines
                .iter()
                .map(|(_, line)| line.as_str())
                .filter(|line| line.starts_with("Error: "))
                .map(|line| line.trim_start_matches("Error: "))
                .collect();
            return Err(if errors.is_empty() {
                format!("Could not compile a catalog for {}", request.node)
            } else {
                errors.join("\n")
            });
        };
        if let Some(storage) = &self.storage {
            storage.store_catalog(&compiled, catalog, request.transaction_uuid.as_deref())?;
        }
        Ok(catalog.to_json().into_bytes())
    }

    fn modulepath(&self, environment: &str) -> Option<Vec<PathBuf>> {
        self.environment(environment)
            .map(|e| e.shared.modulepath.clone())
    }

    fn environment_classes(&self, environment: &str) -> Option<serde_json::Value> {
        let modulepath = self.modulepath(environment)?;
        let dir = self.args.environmentpath().join(environment);
        let dir = dir.is_dir().then_some(dir);
        let files: Vec<serde_json::Value> =
            crate::classes::manifest_files(dir.as_deref(), &modulepath)
                .iter()
                .map(|(file, namespace)| crate::classes::file_entry(file, namespace.as_deref()))
                .collect();
        Some(serde_json::json!({ "files": files }))
    }

    fn static_catalog_dir(&self, environment: &str) -> Option<PathBuf> {
        let dir = self.args.environmentpath().join(environment);
        if !self.exists(environment) || !dir.is_dir() {
            return None;
        }
        // `static_catalogs = false` in its environment.conf, as Puppet's.
        let conf = std::fs::read_to_string(dir.join("environment.conf")).unwrap_or_default();
        let off = conf.lines().any(|line| {
            line.trim().split_once('=').is_some_and(|(key, value)| {
                key.trim() == "static_catalogs" && value.trim() == "false"
            })
        });
        (!off).then_some(dir)
    }

    fn flush_environments(&self, environment: Option<&str>) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        match environment {
            Some(name) => {
                known.remove(name);
            }
            None => known.clear(),
        }
    }

    fn environments_cached(&self) -> usize {
        self.known.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn environments(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.args.environmentpath())
            .map(|dir| {
                dir.filter_map(|e| e.ok())
                    .filter(|e| e.path().is_dir())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|name| self.exists(name))
                    .collect()
            })
            .unwrap_or_default();
        if self.exists("production") && !names.iter().any(|n| n == "production") {
            names.push("production".into());
        }
        names.sort();
        names
    }
}
