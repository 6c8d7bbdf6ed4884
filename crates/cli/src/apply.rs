//! `marionette apply` and `marionette catalog apply`: make the machine
//! match a catalog, print what was done as Puppet does, and keep the
//! report, the summary and the backups under the state directory.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use crate::logdest::{Colour, Destinations};

use anyhow::{Context, Result};
use clap::Args;
use marionette_catalog::Catalog;
use marionette_ral::{Filebucket, Level, Logger};
use marionette_transaction::{Options, Report, RunLock};

/// Puppet's name for the kind of run this command makes, in summaries.
const RUN_MODE: &str = "user";

/// The options `apply` and `catalog apply` share.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct RunArgs {
    /// Report what would change, change nothing.
    #[arg(long)]
    pub(crate) noop: bool,
    /// Exit 2 when something changed, 4 on failures, 6 for both.
    #[arg(long)]
    pub(crate) detailed_exitcodes: bool,
    /// Only apply resources with one of these tags (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub(crate) tags: Vec<String>,
    /// Never apply resources with one of these tags (comma-separated).
    #[arg(long = "skip_tags", alias = "skip-tags", value_delimiter = ',')]
    pub(crate) skip_tags: Vec<String>,
    /// Show a unified diff of each file content change.
    #[arg(long = "show_diff", alias = "show-diff")]
    pub(crate) show_diff: bool,
    /// Write the relationship graph in DOT under the state directory.
    #[arg(long)]
    pub(crate) graph: bool,
    /// Apply every resource whatever its schedule says.
    #[arg(long = "ignoreschedules", alias = "ignore-schedules")]
    pub(crate) ignore_schedules: bool,
    /// Also show info messages.
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,
    /// Also show debug messages (commands run, providers rejected).
    #[arg(long, short = 'd')]
    pub(crate) debug: bool,
    /// Print Puppet's summary of the run (resources, events, times) at
    /// the end.
    #[arg(long)]
    pub(crate) summarize: bool,
    /// Where messages go: `console`, `syslog`, `journald` (either
    /// optionally with `:SOCKET`, the service's socket elsewhere) or an
    /// absolute file path (`.json` and `.jsonl` files get JSON);
    /// comma-separated or repeated.
    #[arg(long, short = 'l', value_name = "DEST")]
    pub(crate) logdest: Vec<String>,
    /// Colour the console: `true` (or `ansi`), `false`, or `auto` (on a
    /// terminal unless `NO_COLOR` is set; the default).
    #[arg(long, value_name = "WHEN", num_args = 0..=1, default_missing_value = "true")]
    pub(crate) color: Option<String>,
    /// Never colour the console.
    #[arg(long)]
    pub(crate) no_color: bool,
    /// Puppet's testing habit: --verbose, --detailed-exitcodes and
    /// --show_diff together.
    #[arg(long, short = 't')]
    pub(crate) test: bool,
    /// Log when each resource starts and how long it took (shown with
    /// --verbose).
    #[arg(long)]
    pub(crate) evaltrace: bool,
    /// Write the classes and the resources of the catalog to
    /// `classes.txt` and `resources.txt` in the state directory.
    #[arg(long)]
    pub(crate) write_catalog_summary: bool,
    /// Leave out of the report the resources that were in sync and had
    /// nothing happen to them (Puppet's `exclude_unchanged_resources`):
    /// a large, quiet run then keeps a report of what happened only.
    #[arg(long)]
    pub(crate) exclude_unchanged_resources: bool,
    /// The lowest level of messages shown: `debug`, `info`, `notice` (the
    /// default), `warning` or `err` (`alert`, `emerg` and `crit` are
    /// `err`), as Puppet's `log_level`.
    #[arg(long, alias = "loglevel", value_name = "LEVEL", value_parser = LOG_LEVELS)]
    pub(crate) log_level: Option<String>,
    /// A command run before the catalog is applied (words separated by
    /// blanks, run without a shell); the run stops when it fails.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) prerun_command: Option<String>,
    /// A command run after the run; its failure makes the run's exit
    /// status 1.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) postrun_command: Option<String>,
    /// Puppet's stack traces on errors: accepted, with no effect
    /// (Marionette's errors name their place in the code).
    #[arg(long)]
    pub(crate) trace: bool,
    /// Puppet's profiling of the run: accepted, with no effect.
    #[arg(long)]
    pub(crate) profile: bool,
    /// Puppet's strictness of the language (`off`, `warning`, `error`):
    /// accepted, with no effect; Marionette's checks do not depend on it.
    #[arg(long, value_name = "MODE", value_parser = ["off", "warning", "error"])]
    pub(crate) strict: Option<String>,
    /// A file of PEM certificates trusted besides the system's and the
    /// agent's CA, for `https://` file sources (Puppet's
    /// `ssl_trust_store`).
    #[arg(
        long = "ssl_trust_store",
        alias = "ssl-trust-store",
        value_name = "FILE"
    )]
    pub(crate) ssl_trust_store: Option<PathBuf>,
    /// Puppet's warnings to leave out (`deprecations`): accepted, with no
    /// effect, as Marionette warns of no deprecation.
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = ["deprecations"])]
    pub(crate) disable_warnings: Vec<String>,
}

/// Puppet's log levels, lowest first.
const LOG_LEVELS: [&str; 8] = [
    "debug", "info", "notice", "warning", "err", "alert", "emerg", "crit",
];

/// The state directory: `--vardir` (or `vardir` in a settings file),
/// else Marionette's default.
pub(crate) fn vardir() -> PathBuf {
    crate::environment::global().vardir()
}

/// Where `puppet:///modules/...` file sources are found: the module path
/// of the run's environment.
pub(crate) fn set_modulepath() {
    let environment = crate::environment::current();
    marionette_ral::served::set_modulepath(&environment.name, environment.modulepath.clone());
}

/// The filebucket of a state directory.
pub(crate) fn filebucket(vardir: &Path) -> Filebucket {
    Filebucket::new(vardir.join("clientbucket"))
}

/// Where the run's messages go, from its options.
pub(crate) fn destinations(args: &RunArgs) -> Result<Destinations> {
    let colour = match (&args.color, args.no_color) {
        (_, true) => Colour::Never,
        (Some(value), false) => Colour::parse(value)?,
        (None, false) => Colour::Auto,
    };
    // --debug and --verbose lower the level as Puppet's do; an explicit
    // level otherwise.
    let lowest = match args.log_level.as_deref() {
        _ if args.debug => Level::Debug,
        Some("debug") => Level::Debug,
        Some("info") => Level::Info,
        _ if args.verbose || args.test => Level::Info,
        Some("warning") => Level::Warning,
        Some("err" | "alert" | "emerg" | "crit") => Level::Err,
        _ => Level::Notice,
    };
    let log = Destinations::open(&args.logdest, colour, lowest)?;
    // What Puppet's flags without a meaning here were given for, said
    // once, so that nobody waits for what will not come.
    for (given, flag) in [
        (args.trace, "--trace"),
        (args.profile, "--profile"),
        (args.strict.is_some(), "--strict"),
        (!args.disable_warnings.is_empty(), "--disable_warnings"),
    ] {
        if given {
            log.emit(
                Level::Notice,
                "",
                &format!("{flag} is accepted and has no effect in Marionette"),
            );
        }
    }
    Ok(log)
}

/// Runs the `prerun_command` or `postrun_command` (`setting`), as Puppet
/// does: its words as a command, without a shell; false with Puppet's
/// error logged when it fails.
fn run_command(setting: &str, command: Option<&str>, logger: &Logger) -> bool {
    let Some(command) = command.filter(|c| !c.trim().is_empty()) else {
        return true;
    };
    let words: Vec<&str> = command.split_whitespace().collect();
    let spec = marionette_ral::command::CommandSpec::new(&words).combined();
    match marionette_ral::command::Runner::new(logger.clone()).run(&spec) {
        Ok(_) => true,
        Err(error) => {
            logger.log(
                Level::Err,
                "",
                &format!("Could not run command from {setting}: {error}"),
            );
            false
        }
    }
}

/// The run lock of a state directory, held until the run ends, and the
/// process whose stale lock taking it cleared.
pub(crate) struct HeldLock {
    _lock: RunLock,
    cleared: Option<i32>,
}

/// Takes the run lock of the state directory. `apply` takes it
/// before compiling, as Puppet's agent holds its lock while it gets its
/// catalog: what the compilation looks at ahead of the run
/// (`catalog::look_at_files_ahead`) must not be changed meanwhile by
/// another run.
pub(crate) fn take_lock() -> Result<HeldLock> {
    let state = vardir().join("state");
    let (lock, cleared) = RunLock::acquire(&state.join("run.lock"))?;
    Ok(HeldLock {
        _lock: lock,
        cleared,
    })
}

/// Applies a compiled catalog under the run lock `held`: deferred calls,
/// graph, transaction, report. `remote_filebucket` is the server's bucket
/// of an agent's run.
pub(crate) fn run(
    catalog: &Catalog,
    facts: serde_json::Map<String, serde_json::Value>,
    args: &RunArgs,
    config_retrieval: Option<f64>,
    held: HeldLock,
    log: &Destinations,
    remote_filebucket: Option<Filebucket>,
) -> Result<Ran> {
    stop_on_signals();
    marionette_plugin::Plugins::set_node_facts(Arc::new(facts.clone()));
    let logger = log.logger();
    // `https://` file sources are trusted as Puppet's client trusts them:
    // the system's bundle, Puppet's CA certificate (`localcacert`) and
    // `ssl_trust_store`.
    let ssldir = crate::environment::global().ssldir();
    let mut trusted = vec![ssldir.join("certs/ca.pem")];
    trusted.extend(args.ssl_trust_store.iter().cloned());
    marionette_types::web::set_trust(marionette_types::web::Trust {
        trusted,
        certname: catalog.name.clone(),
        certificate: ssldir.join(format!("certs/{}.pem", catalog.name)),
        private_key: ssldir.join(format!("private_keys/{}.pem", catalog.name)),
        logger: logger.clone(),
    });
    if !run_command("prerun_command", args.prerun_command.as_deref(), &logger) {
        return Ok(Ran::without_report(ExitCode::FAILURE));
    }
    let vardir = vardir();
    let state = vardir.join("state");
    // `held` is a parameter: the lock is released when the run returns.
    if let Some(pid) = held.cleared {
        logger.log(
            Level::Notice,
            "",
            &format!("Removed a stale run lock left by process {pid}, which is no longer running"),
        );
    }
    // Deferred calls are made now, on this node, before anything else.
    let resolved;
    let catalog = if marionette_catalog::has_deferred(catalog) {
        let environment = crate::environment::current();
        let context = marionette_eval::DeferredContext::new(
            facts.clone(),
            environment.modulepath.clone(),
            environment.name.clone(),
            Some(crate::catalog::external_functions()),
            Some(crate::environment::ruby()),
        );
        let mut copy = catalog.clone();
        if let Err(message) = marionette_catalog::resolve_deferred(&mut copy, &mut |name, args| {
            marionette_eval::call_deferred(&context, name, args)
        }) {
            logger.log(Level::Err, "", &message);
            return Ok(Ran::without_report(ExitCode::FAILURE));
        }
        resolved = copy;
        &resolved
    } else {
        catalog
    };
    let registry = crate::environment::registry();
    if args.graph {
        let dot = marionette_transaction::apply::graph_dot(catalog, &registry)?;
        let path = state.join("graphs/relationships.dot");
        std::fs::create_dir_all(path.parent().expect("has a parent"))?;
        std::fs::write(&path, dot)
            .with_context(|| format!("Could not write {}", path.display()))?;
        logger.log(
            Level::Notice,
            "",
            &format!("Wrote the relationship graph to {}", path.display()),
        );
    }
    let options = Options {
        noop: args.noop,
        tags: args.tags.clone(),
        skip_tags: args.skip_tags.clone(),
        host: catalog.name.clone(),
        filebucket: Some(filebucket(&vardir)),
        remote_filebucket,
        config_retrieval,
        progress: crate::progress::for_run(),
        show_diff: args.show_diff || args.test,
        state_dir: Some(state.clone()),
        ignore_schedules: args.ignore_schedules,
        evaltrace: args.evaltrace,
    };
    if args.write_catalog_summary {
        write_catalog_summary(catalog, &registry, &state, &logger);
    }
    let started = Instant::now();
    let facts = Arc::new(facts);
    let mut report =
        match marionette_transaction::apply(catalog, registry, facts, logger.clone(), &options) {
            Ok(report) => report,
            Err(error) => {
                match &error {
                    // Each refusal under its resource's path, as Puppet logs
                    // them.
                    marionette_transaction::apply::ApplyError::PreRun(refused) => {
                        for one in refused {
                            logger.log(Level::Err, "", &one.to_string());
                        }
                    }
                    _ => logger.log(Level::Err, "", &error.to_string()),
                }
                // `puppet apply` stops at an invalid resource with its message
                // alone (the catalog cannot be converted); the other failures
                // end with a closing line.
                if !matches!(error, marionette_transaction::apply::ApplyError::Invalid(_)) {
                    logger.log(Level::Err, "", &error.summary());
                }
                return Ok(Ran::without_report(ExitCode::FAILURE));
            }
        };
    logger.log(
        Level::Notice,
        "",
        &format!(
            "Applied catalog in {:.2} seconds",
            started.elapsed().as_secs_f64()
        ),
    );
    if args.exclude_unchanged_resources {
        report.exclude_unchanged_resources();
    }
    let written = write_report(&state, &mut report, &logger);
    // A person at a terminal gets the run in one line; pipes and logs
    // get Puppet's output alone.
    if args.logdest.is_empty() && std::io::stdout().is_terminal() {
        let c = &report.counts;
        let value = |name: &str| match name {
            "changed" => c.changed,
            "failed" => c.failed,
            "skipped" => c.skipped,
            "out_of_sync" => c.out_of_sync,
            _ => c.restarted,
        } as u64;
        outln!(
            "Summary: {}",
            crate::report::totals(
                c.total as u64,
                &crate::report::SHOWN_COUNTS.map(|name| (name, value(name))),
                Some(started.elapsed().as_secs_f64()),
            )
        );
    }
    if args.summarize {
        out!("{}", report.summary_text(RUN_MODE));
    }
    if !run_command("postrun_command", args.postrun_command.as_deref(), &logger) {
        return Ok(Ran {
            code: ExitCode::FAILURE,
            report: written,
        });
    }
    let changed = report.counts.changed > 0 || report.counts.restarted > 0;
    let failed = report.failures;
    marionette_values::parallel::drop_aside(report);
    let code = if marionette_transaction::apply::stop_requested() {
        ExitCode::FAILURE
    } else if args.detailed_exitcodes || args.test {
        ExitCode::from(u8::from(changed) * 2 + u8::from(failed) * 4)
    } else {
        ExitCode::SUCCESS
    };
    Ok(Ran {
        code,
        report: written,
    })
}

/// What a run leaves: its exit code, and its report as it was written
/// to `last_run_report.json`, for the server or the storage (none when
/// the run stopped before it applied anything: a report read back from
/// the file would be the previous run's).
pub(crate) struct Ran {
    pub(crate) code: ExitCode,
    pub(crate) report: Option<Vec<u8>>,
}

impl Ran {
    fn without_report(code: ExitCode) -> Ran {
        Ran { code, report: None }
    }
}

/// Keeps the report and the summary, and gives the report's JSON; a
/// failure to write them is reported, not fatal (the run itself is over,
/// and its report still goes where it is sent).
fn write_report(state: &Path, report: &mut Report, logger: &Logger) -> Option<Vec<u8>> {
    let mut json = Vec::new();
    let written = std::fs::create_dir_all(state)
        .and_then(|()| {
            replace_report(
                &state.join("last_run_report.json"),
                &state.join("previous_run_report.json"),
                report,
                &mut json,
            )
        })
        .and_then(|()| {
            write_atomically(
                &state.join("last_run_summary.yaml"),
                report.summary_yaml(RUN_MODE).as_bytes(),
            )
        });
    if let Err(e) = written {
        logger.log(
            Level::Err,
            "",
            &format!("Could not save the report in {}: {e}", state.display()),
        );
        // What was kept of it may be part of it.
        json.clear();
        if let Err(e) = report.write_json(&mut json) {
            logger.log(Level::Err, "", &format!("Could not write the report: {e}"));
            return None;
        }
    }
    Some(json)
}

/// Writes to a file and keeps a copy of what it wrote.
struct Tee<'a, W> {
    out: W,
    copy: &'a mut Vec<u8>,
}

impl<W: std::io::Write> std::io::Write for Tee<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes)?;
        self.copy.extend_from_slice(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Writes the report at `path`, the one it replaces moving to `previous`,
/// so that a run killed at any moment leaves both whole: the new report is
/// written aside in the same directory, then exchanged with the last one,
/// which is renamed to `previous`. Where the file system cannot exchange
/// files, the last report is renamed to `previous` and the new one into
/// place: for that moment there is no last report, but never a torn one.
/// What is written is kept in `copy` too, for the server or the storage.
fn replace_report(
    path: &Path,
    previous: &Path,
    report: &mut Report,
    copy: &mut Vec<u8>,
) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let aside = path.with_extension("json.partial");
    // Reports tell what changed on the machine: readable by the owner and
    // the group only, as Puppet keeps them (0640). A file left aside by a
    // killed run is replaced, not written into.
    let _ = std::fs::remove_file(&aside);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o640)
        .open(&aside)?;
    // Streamed, compact: the report of a large run is megabytes.
    let mut out = Tee {
        out: std::io::BufWriter::with_capacity(256 * 1024, file),
        copy,
    };
    report.write_json(&mut out)?;
    out.flush()?;
    drop(out);
    if exchange(&aside, path).is_ok() {
        return std::fs::rename(&aside, previous);
    }
    match std::fs::rename(path, previous) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    std::fs::rename(&aside, path)
}

/// Swaps two paths atomically (`renameat2` with `RENAME_EXCHANGE`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let a = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let b = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are NUL-terminated paths that live across the call.
    let result = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

/// `marionette catalog apply FILE.json`: a catalog compiled by us or by
/// the real Puppet.
pub(crate) fn apply_catalog_file(path: &Path, args: &RunArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("Could not read {}", path.display()))?;
    let catalog = Catalog::from_json(&text).with_context(|| {
        format!(
            "{} is not a catalog in Puppet's JSON format",
            path.display()
        )
    })?;
    match catalog.check() {
        Ok(()) => {}
        Err(cycle @ marionette_catalog::CatalogError::Cycle(_)) => {
            anyhow::bail!(
                "{cycle}\nError: Failed to apply catalog: One or more resource dependency cycles detected in graph"
            )
        }
        Err(other) => anyhow::bail!("Could not run: {other}"),
    }
    let log = destinations(args)?;
    let held = take_lock()?;
    run(
        &catalog,
        crate::custom_facts::for_catalog(&catalog),
        args,
        None,
        held,
        &log,
        None,
    )
    .map(|ran| ran.code)
}

/// `classes.txt` and `resources.txt` in the state directory, as Puppet's
/// `--write-catalog-summary` writes them: the classes declared, and the
/// resources managed (`type[title]` in lower case; classes, stages and
/// defined types' instances left out).
fn write_catalog_summary(
    catalog: &Catalog,
    registry: &marionette_ral::Registry,
    state: &Path,
    logger: &Logger,
) {
    let mut classes = catalog.classes.join("\n");
    classes.push('\n');
    let mut resources: Vec<String> = catalog
        .resources
        .iter()
        .filter(|r| registry.type_def(&r.type_name.to_lowercase()).is_some())
        .map(|r| format!("{}[{}]", r.type_name, r.title).to_lowercase())
        .collect();
    resources.push(String::new());
    for (name, text) in [
        ("classes.txt", classes),
        ("resources.txt", resources.join("\n")),
    ] {
        let path = state.join(name);
        let written =
            std::fs::create_dir_all(state).and_then(|()| write_atomically(&path, text.as_bytes()));
        if let Err(e) = written {
            logger.log(
                Level::Err,
                "",
                &format!("Could not create {name} file {}: {e}", path.display()),
            );
        }
    }
}

/// Ctrl-C and SIGTERM during a run stop it after the resource under way
/// (whose command, in a session of its own, is passed Ctrl-C too): the
/// run reports what it did, the report is written and the lock released,
/// and the command exits 1. Before the run applies anything, they end the
/// process at once, as by default.
fn stop_on_signals() {
    extern "C" fn on_signal(signal: libc::c_int) {
        // The command under way, in a process group of its own, gets the
        // signal too.
        marionette_ral::command::pass_on(signal);
        if !marionette_transaction::apply::request_stop(signal) {
            // SAFETY: _exit(2) is async-signal-safe; nothing was changed.
            unsafe { libc::_exit(128 + signal) };
        }
    }
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores into atomics or calls _exit.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}
