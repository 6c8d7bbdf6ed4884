//! `marionette apply` and `marionette catalog apply`: make the machine
//! match a catalog, print what was done as Puppet does, and keep the
//! report, the summary and the backups under the state directory.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Whether a progress line is on the terminal: log lines erase it first.
static PROGRESS_SHOWN: AtomicBool = AtomicBool::new(false);

use anyhow::{Context, Result};
use clap::Args;
use marionette_catalog::Catalog;
use marionette_ral::{Filebucket, Level, Logger};
use marionette_transaction::{Options, Report, RunLock};

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
    /// Where reports, backups and the run lock live (default
    /// /var/lib/marionette as root, ~/.marionette otherwise).
    #[arg(long)]
    pub(crate) vardir: Option<PathBuf>,
    /// Also show info messages.
    #[arg(long, short = 'v')]
    pub(crate) verbose: bool,
    /// Also show debug messages (commands run, providers rejected).
    #[arg(long, short = 'd')]
    pub(crate) debug: bool,
}

/// The state directory.
pub(crate) fn vardir(explicit: Option<&Path>) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_path_buf();
    }
    // SAFETY: geteuid(2) has no preconditions.
    if unsafe { libc_geteuid() } == 0 {
        return PathBuf::from("/var/lib/marionette");
    }
    std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".marionette"))
        .unwrap_or_else(|| PathBuf::from(".marionette"))
}

unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

/// Where `puppet:///modules/...` file sources are found: the module path
/// of the run's environment.
pub(crate) fn set_modulepath() {
    marionette_types::types::file::set_modulepath(crate::environment::current().modulepath.clone());
}

/// The filebucket of a state directory.
pub(crate) fn filebucket(vardir: &Path) -> Filebucket {
    Filebucket::new(vardir.join("clientbucket"))
}

/// Puppet's console: notices and below on stdout, warnings and errors on
/// stderr, colours on a terminal unless `NO_COLOR` is set.
pub(crate) fn console(verbose: bool, debug: bool) -> Logger {
    let colour_out = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let colour_err = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    Logger::with_sink(move |entry| {
        let shown = match entry.level {
            Level::Debug => debug,
            Level::Info => verbose || debug,
            _ => true,
        };
        if !shown {
            return;
        }
        let text = if entry.source.is_empty() {
            format!("{}: {}", entry.level, entry.message)
        } else {
            format!("{}: {}: {}", entry.level, entry.source, entry.message)
        };
        if PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
            err!("\r\x1b[K");
        }
        let colour = match entry.level {
            Level::Debug => "36",
            Level::Info => "32",
            Level::Notice => "",
            Level::Warning => "1;33",
            Level::Err => "1;31",
        };
        if entry.level >= Level::Warning {
            if colour_err && !colour.is_empty() {
                errln!("\x1b[{colour}m{text}\x1b[0m");
            } else {
                errln!("{text}");
            }
        } else if colour_out && !colour.is_empty() {
            outln!("\x1b[{colour}m{text}\x1b[0m");
        } else {
            outln!("{text}");
        }
    })
}

/// The run lock of a state directory, held until the run ends, and the
/// process whose stale lock taking it cleared.
pub(crate) struct HeldLock {
    _lock: RunLock,
    cleared: Option<i32>,
}

/// Takes the run lock of the state directory `args` name. `apply` takes it
/// before compiling, as Puppet's agent holds its lock while it gets its
/// catalog: what the compilation looks at ahead of the run
/// (`catalog::look_at_files_ahead`) must not be changed meanwhile by
/// another run.
pub(crate) fn take_lock(args: &RunArgs) -> Result<HeldLock> {
    let state = vardir(args.vardir.as_deref()).join("state");
    let (lock, cleared) = RunLock::acquire(&state.join("run.lock"))?;
    Ok(HeldLock {
        _lock: lock,
        cleared,
    })
}

/// Applies a compiled catalog under the run lock `held`: deferred calls,
/// graph, transaction, report.
pub(crate) fn run(
    catalog: &Catalog,
    facts: serde_json::Map<String, serde_json::Value>,
    args: &RunArgs,
    config_retrieval: Option<f64>,
    held: HeldLock,
) -> Result<ExitCode> {
    stop_on_signals();
    let logger = console(args.verbose, args.debug);
    let vardir = vardir(args.vardir.as_deref());
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
        );
        let mut copy = catalog.clone();
        if let Err(message) = marionette_catalog::resolve_deferred(&mut copy, &mut |name, args| {
            marionette_eval::call_deferred(&context, name, args)
        }) {
            logger.log(Level::Err, "", &message);
            return Ok(ExitCode::FAILURE);
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
        config_retrieval,
        progress: progress_line(),
        show_diff: args.show_diff,
        state_dir: Some(state.clone()),
        ignore_schedules: args.ignore_schedules,
    };
    let started = Instant::now();
    let mut report = match marionette_transaction::apply(
        catalog,
        registry,
        Arc::new(facts),
        logger.clone(),
        &options,
    ) {
        Ok(report) => report,
        Err(error) => {
            logger.log(Level::Err, "", &error.to_string());
            // `puppet apply` stops at an invalid resource with its message
            // alone (the catalog cannot be converted); the other failures
            // end with a closing line.
            if !matches!(error, marionette_transaction::apply::ApplyError::Invalid(_)) {
                logger.log(Level::Err, "", &error.summary());
            }
            return Ok(ExitCode::FAILURE);
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
    write_report(&state, &mut report, &logger);
    let changed = report.counts.changed > 0 || report.counts.restarted > 0;
    // The status also counts failures no resource can be blamed for (a
    // provider's deferred changes).
    let failed = report.status == "failed";
    marionette_values::parallel::drop_aside(report);
    if marionette_transaction::apply::stop_requested() {
        return Ok(ExitCode::FAILURE);
    }
    if args.detailed_exitcodes {
        return Ok(ExitCode::from(u8::from(changed) * 2 + u8::from(failed) * 4));
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress line on stderr, for runs of more than 100 resources on a
/// terminal; it is rewritten in place and erased at the end.
fn progress_line() -> Option<marionette_transaction::apply::Progress> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    Some(Arc::new(|done, total| {
        if total <= 100 {
            return;
        }
        if done == total {
            if PROGRESS_SHOWN.swap(false, Ordering::Relaxed) {
                err!("\r\x1b[K");
            }
        } else if done % 25 == 0 {
            err!("\r[{done}/{total}] resources");
            PROGRESS_SHOWN.store(true, Ordering::Relaxed);
        }
    }))
}

/// Keeps the report and the summary; a failure to write them is reported,
/// not fatal (the run itself is over).
fn write_report(state: &Path, report: &mut Report, logger: &Logger) {
    // Streamed, compact: the report of a large run is megabytes.
    let written = std::fs::create_dir_all(state)
        .and_then(|()| {
            replace_report(
                &state.join("last_run_report.json"),
                &state.join("previous_run_report.json"),
                report,
            )
        })
        .and_then(|()| {
            write_atomically(
                &state.join("last_run_summary.yaml"),
                report.summary_yaml().as_bytes(),
            )
        });
    if let Err(e) = written {
        logger.log(
            Level::Err,
            "",
            &format!("Could not save the report in {}: {e}", state.display()),
        );
    }
}

/// Writes the report at `path` atomically, the one it replaces moving to
/// `previous`. The new report is written over the report before that, in
/// place, and the two files are then exchanged: replacing or removing a
/// report of megabytes would make the kernel free its cached pages, which
/// took milliseconds, and a fresh file needs fresh pages. Where the file
/// system cannot exchange files, the new report is renamed over the old.
fn replace_report(path: &Path, previous: &Path, report: &mut Report) -> std::io::Result<()> {
    use std::io::{Seek, Write};
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    // Reports tell what changed on the machine: readable by the owner and
    // the group only, as Puppet keeps them (0640), also when the file was
    // made by an earlier version with other permissions.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o640)
        .open(previous)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o640))?;
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, file);
    report.write_json(&mut out)?;
    out.flush()?;
    let mut file = out.into_inner().map_err(|e| e.into_error())?;
    let length = file.stream_position()?;
    file.set_len(length)?;
    drop(file);
    if path.exists() && exchange(previous, path).is_ok() {
        return Ok(());
    }
    std::fs::rename(previous, path)
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
    let held = take_lock(args)?;
    run(&catalog, crate::catalog::local_facts(), args, None, held)
}

/// Ctrl-C and SIGTERM during a run stop it after the resource under way
/// (whose command, in the terminal's process group, gets Ctrl-C too): the
/// run reports what it did, the report is written and the lock released,
/// and the command exits 1. Before the run applies anything, they end the
/// process at once, as by default.
fn stop_on_signals() {
    extern "C" fn on_signal(signal: libc::c_int) {
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
