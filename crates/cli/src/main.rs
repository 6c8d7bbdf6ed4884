//! The `marionette` command. Only this crate prints; the libraries return
//! values and diagnostics.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

/// `print!` and `println!` that end the output quietly when its reader went
/// away (`marionette resource package | head -1`) instead of panicking;
/// `err!` and `errln!` the same for standard error.
macro_rules! out {
    ($($arg:tt)*) => { $crate::write_quietly(&mut std::io::stdout(), format_args!($($arg)*)) };
}
macro_rules! outln {
    ($($arg:tt)*) => { $crate::write_quietly(&mut std::io::stdout(), format_args!("{}\n", format_args!($($arg)*))) };
}
macro_rules! err {
    ($($arg:tt)*) => { $crate::write_quietly(&mut std::io::stderr(), format_args!($($arg)*)) };
}
macro_rules! errln {
    ($($arg:tt)*) => { $crate::write_quietly(&mut std::io::stderr(), format_args!("{}\n", format_args!($($arg)*))) };
}

/// Writes to a standard stream, ignoring a reader that went away: the
/// command goes on (a run finishes what it started) and says nothing more
/// there.
pub(crate) fn write_quietly(stream: &mut dyn std::io::Write, text: std::fmt::Arguments<'_>) {
    let _ = stream.write_fmt(text).and_then(|()| stream.flush());
}

mod catalog;
mod catalog_diff;
mod classes;
mod config;
mod custom_facts;
use clap::{Parser, Subcommand};
use marionette_diagnostics::SourceFile;
use marionette_syntax::{SourceKind, dump};

mod agent;
mod apply;
mod ca;
mod describe;
mod environment;
mod epp;
mod facts;
mod filebucket;
mod generate;
mod logdest;
mod lookup;
mod module;
mod node;
mod progress;
mod report;
mod reports;
mod resource;
mod server;
mod storage;
mod subcommand;

// Parsing allocates many small nodes; mimalloc is markedly faster at that
// than the system allocator. Its version 2 (the `v2` feature) rather than
// 3, by measurement: with it, a second run of 5,000 files was 1.06-1.12x
// faster and peaked at 32 MB instead of 35-37, and every other benchmark
// manifest ran faster too (bench/README.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "marionette",
    version,
    about = "Configuration management that speaks Puppet",
    disable_help_subcommand = true,
    args_override_self = true,
    // `puppet agent --version` prints the version as `puppet --version`.
    propagate_version = true
)]
struct Cli {
    #[command(flatten)]
    env: environment::EnvArgs,
    /// Settings in `puppet.conf`'s form (`[main]`, `[agent]`, `[server]`,
    /// `[user]`) with Puppet's names, before the command line's options
    /// (default /etc/marionette/puppet.conf, when it exists).
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help_heading = "Global options"
    )]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a manifest (a file, or code given with -e) with this
    /// machine's facts and apply it, as `puppet apply` does.
    #[command(
        after_help = "Examples:\n  marionette apply site.pp --noop\n  marionette apply -e 'notice(\"hello\")'\n  marionette apply manifests/ -t --summarize"
    )]
    Apply {
        /// The manifest to apply: a file, a directory (every `.pp` file
        /// below it, in path order), or `-` for standard input, which is
        /// also read when neither a file nor -e is given.
        #[arg(conflicts_with = "execute")]
        file: Option<PathBuf>,
        /// Code to apply instead of a file.
        #[arg(short = 'e', long = "execute", value_name = "CODE")]
        execute: Option<String>,
        /// The node name (defaults to this machine's host name).
        #[arg(long)]
        certname: Option<String>,
        /// Fail on unknown variables instead of warning.
        #[arg(long)]
        strict_variables: bool,
        /// Print the compiled catalog instead of applying it.
        #[arg(long)]
        catalog_only: bool,
        /// Apply this catalog (Puppet's JSON format) instead of compiling
        /// a manifest, as `puppet apply --catalog` does; the same as
        /// `catalog apply FILE`.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "execute", "catalog_only"])]
        catalog: Option<PathBuf>,
        #[command(flatten)]
        storeconfigs: storage::StoreconfigsArgs,
        #[command(flatten)]
        run: apply::RunArgs,
    },
    /// List, show and restore the file contents saved before changes.
    #[command(
        after_help = "Examples:\n  marionette filebucket list\n  marionette filebucket backup /etc/hosts\n  marionette filebucket diff SUM /etc/hosts"
    )]
    Filebucket {
        #[command(subcommand)]
        command: filebucket::FilebucketCommand,
    },
    /// Describe resource types, as `puppet describe` does.
    #[command(
        after_help = "Examples:\n  marionette describe --list\n  marionette describe file\n  marionette describe --providers user"
    )]
    Describe(describe::DescribeArgs),
    /// Generate reference documentation (`--reference type`).
    #[command(after_help = "Examples:\n  marionette doc --reference type > types.md")]
    Doc(describe::DocArgs),
    /// List, show or change resources on this machine, as `puppet resource`
    /// does.
    #[command(
        after_help = "Examples:\n  marionette resource user\n  marionette resource package openssh-server\n  marionette resource group mrtest-g ensure=present gid=4300"
    )]
    Resource(resource::ResourceArgs),
    /// Compile catalogs.
    #[command(
        after_help = "Examples:\n  marionette catalog compile site.pp --certname web1.example.com --facts web1.json\n  marionette catalog diff --repo control --from main --to my-branch --facts facts/\n  marionette catalog apply catalog.json --noop"
    )]
    Catalog {
        #[command(subcommand)]
        command: CatalogCommand,
    },
    /// Print the facts of this machine, as `facter` does.
    #[command(
        after_help = "Examples:\n  marionette facts\n  marionette facts os.family networking.ip\n  marionette facts -p --json"
    )]
    Facts(facts::FactsArgs),
    /// Look up Hiera data for a node, as `puppet lookup` does.
    #[command(
        after_help = "Examples:\n  marionette lookup ntp::servers\n  marionette lookup --explain ntp::servers\n  marionette lookup --node web1.example.com --facts web1.json profile::packages"
    )]
    Lookup(lookup::LookupArgs),
    /// Read the kept run reports: `list` them, or `show` one as a person
    /// reads it (or as JSON).
    #[command(
        after_help = "Examples:\n  marionette report list\n  marionette report show\n  marionette report show --format json"
    )]
    Report {
        #[command(subcommand)]
        command: report::ReportCommand,
    },
    /// Render EPP templates with values, or check their syntax, as
    /// `puppet epp` does.
    #[command(
        after_help = "Examples:\n  marionette epp render motd.epp --values '{owner => \"ops\"}'\n  marionette epp validate templates/motd.epp"
    )]
    Epp(epp::EppArgs),
    /// Check and inspect Puppet manifests and EPP templates.
    #[command(
        after_help = "Examples:\n  marionette parser validate site.pp\n  marionette parser validate --epp modules/\n  marionette parser dump site.pp"
    )]
    Parser {
        #[command(subcommand)]
        command: ParserCommand,
    },
    /// Run as Puppet's agent against a server: get a certificate, sync
    /// plugins, fetch the catalog, apply it, send the report.
    #[command(
        after_help = "Examples:\n  marionette agent -t --server puppet.example.com\n  marionette agent -t --noop\n  marionette agent --server puppet.example.com   # runs every 30 minutes"
    )]
    Agent(agent::AgentArgs),
    /// Serve agents over Puppet's HTTPS API: the certificate authority,
    /// catalogs compiled for each node, module plugins and files, reports.
    #[command(
        after_help = "Examples:\n  marionette server --certname puppet.example.com --autosign /etc/marionette/autosign.conf\n  marionette server --storeconfigs --reports store,puppetdb"
    )]
    Server(Box<server::ServerArgs>),
    /// The server's storage on its own: `serve` answers PuppetDB's API
    /// over it, in PuppetDB's place.
    #[command(
        after_help = "Examples:\n  marionette storage serve --certname puppetdb.example.com\n  marionette storage serve --storage-url postgresql://puppetdb@localhost/puppetdb"
    )]
    Storage(storage::StorageArgs),
    /// Nodes in the server's storage: deactivate them, or tell their
    /// status, as `puppet node` does with PuppetDB.
    #[command(
        after_help = "Examples:\n  marionette node deactivate retired.example.com\n  marionette node status web01.example.com"
    )]
    Node(node::NodeArgs),
    /// Administer the certificate authority: list, sign, revoke, clean
    /// and generate certificates, as `puppetserver ca` does.
    #[command(
        after_help = "Examples:\n  marionette ca list --all\n  marionette ca sign --certname web1.example.com\n  marionette ca revoke --certname old.example.com"
    )]
    Ca(ca::CaArgs),
    /// List the modules of the module path and their unmet dependencies,
    /// as `puppet module list` does.
    #[command(
        after_help = "Examples:\n  marionette module list\n  marionette module list --tree --modulepath modules"
    )]
    Module(module::ModuleArgs),
    /// Print the settings Marionette uses, as `puppet config print` does:
    /// from the configuration file, else their defaults.
    #[command(
        after_help = "Examples:\n  marionette config print modulepath\n  marionette config print all\n  marionette config print --section agent server"
    )]
    Config(config::ConfigArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell).
    #[command(
        after_help = "Examples:\n  marionette completions bash > /etc/bash_completion.d/marionette\n  marionette completions zsh > ~/.zfunc/_marionette"
    )]
    Completions(generate::CompletionsArgs),
    /// Print the manual page, or write one per command with --out DIR.
    #[command(
        after_help = "Examples:\n  marionette man | man -l -\n  marionette man --out /usr/local/share/man/man1"
    )]
    Man(generate::ManArgs),
    /// Print this help, or the help of a command; also lists the
    /// subcommands that modules and PATH provide.
    Help {
        /// The command to explain.
        command: Option<String>,
        /// Its subcommand, if any.
        subcommand: Option<String>,
    },
    /// A subcommand shipped as `marionette-NAME` in a module's `bin/` or on
    /// PATH.
    #[command(external_subcommand)]
    External(Vec<OsString>),
}

#[derive(Subcommand)]
enum CatalogCommand {
    /// Compile the catalog of a node and print it as JSON, as
    /// `puppet catalog compile --render-as json` does.
    Compile(catalog::CompileArgs),
    /// Compare the catalogs of nodes compiled with two versions of the
    /// code (directories or git refs), as octocatalog-diff does; exits 2
    /// when they differ, 4 when the new code fails to compile (6: both).
    Diff(catalog_diff::DiffArgs),
    /// Apply a catalog in Puppet's JSON format (compiled by marionette or
    /// by Puppet), as `puppet apply --catalog` does.
    Apply {
        /// The catalog file (`puppet:///modules/...` file sources are found
        /// on the module path).
        file: PathBuf,
        #[command(flatten)]
        run: apply::RunArgs,
    },
}

#[derive(Subcommand)]
enum ParserCommand {
    /// Check the syntax of manifests: files, or directories searched for
    /// `.pp` files (and `.epp` files with --epp).
    Validate {
        /// Files or directories to check.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Also check `.epp` templates found in directories, and treat every
        /// named file as a template.
        #[arg(long)]
        epp: bool,
    },
    /// Print the syntax tree of a manifest or template.
    Dump {
        file: PathBuf,
        /// Leave out the byte offsets of each node.
        #[arg(long)]
        no_spans: bool,
    },
}

fn main() -> ExitCode {
    disable_huge_pages();
    // A panic is a bug in Marionette, never the user's doing: say so, in
    // one line a report can quote, rather than with Rust's backtrace.
    std::panic::set_hook(Box::new(|info| {
        errln!("Error: Marionette failed unexpectedly; this is a bug, please report it: {info}");
    }));
    let args: Vec<OsString> = match config::with_settings(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(message) => {
            errln!("Error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let parsed = command()
        .try_get_matches_from(&args)
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(error) => exit_now(usage_error(&error)),
    };
    // An external subcommand is the user's own program, run in our place:
    // it gets what we were given (`--file <(...)`).
    if !matches!(cli.command, Command::External(_)) {
        marionette_ral::command::keep_inherited_descriptors_from_commands();
    }
    // An environment named must exist, as in Puppet: a typo would
    // otherwise compile the wrong code, or none. Puppet always has
    // `production`, directory or not.
    // The agent's environment is the server's; it chooses its local one,
    // the plugins it synced, itself.
    let agent = matches!(cli.command, Command::Agent(_));
    if let (Some(name), Some(dir)) = (&cli.env.environment, cli.env.directory())
        && !dir.is_dir()
        && name != "production"
        && !agent
    {
        errln!(
            "Error: Could not find a directory environment named '{name}' anywhere in the path: {}. Does the directory exist?",
            cli.env.environmentpath().display()
        );
        return ExitCode::FAILURE;
    }
    // Checked before anything runs, as Puppet checks its settings: the
    // host would otherwise start, much later, with a limit nobody gave.
    if let Err(error) = marionette_ruby::Settings::timeout_from_env() {
        errln!("Error: {error}");
        return ExitCode::FAILURE;
    }
    environment::set_global(&cli.env);
    if !agent {
        let compiles = matches!(
            cli.command,
            Command::Apply { .. }
                | Command::Catalog {
                    command: CatalogCommand::Compile(_)
                }
        );
        environment::choose(&cli.env, compiles);
    }
    let result = run(cli);
    // Plugins get to finish cleanly before the process ends.
    environment::shutdown();
    let code = match result {
        Ok(code) => code,
        Err(error) => {
            errln!("Error: {}", describe(&error));
            ExitCode::FAILURE
        }
    };
    exit_now(code)
}

/// The command line's definition with Puppet's spellings added: every
/// long option also answers to its name with underscores for dashes (or
/// dashes for underscores: `--log_level` and `--log-level`), and every
/// switch has a `--no-` form that turns it off again (`--no-noop`), as
/// Puppet's boolean settings do. Generated here so that no option is
/// written twice; the aliases are hidden from the help.
pub(crate) fn command() -> clap::Command {
    puppet_spellings(<Cli as clap::CommandFactory>::command())
}

fn puppet_spellings(command: clap::Command) -> clap::Command {
    let longs: Vec<String> = command
        .get_arguments()
        .filter_map(|arg| arg.get_long().map(String::from))
        .collect();
    let switches: Vec<(clap::Id, String)> = command
        .get_arguments()
        .filter(|arg| matches!(arg.get_action(), clap::ArgAction::SetTrue) && !arg.is_global_set())
        .filter_map(|arg| Some((arg.get_id().clone(), arg.get_long()?.to_string())))
        .filter(|(_, long)| {
            !long.starts_with("no-")
                && !long.starts_with("no_")
                && !longs.contains(&format!("no-{long}"))
        })
        .collect();
    let mut command = command.mut_args(|arg| {
        let Some(long) = arg.get_long() else {
            return arg;
        };
        let other = if long.contains('-') {
            long.replace('-', "_")
        } else {
            long.replace('_', "-")
        };
        let taken = other == long
            || arg
                .get_all_aliases()
                .is_some_and(|aliases| aliases.contains(&other.as_str()));
        if taken { arg } else { arg.alias(other) }
    });
    for (id, long) in switches {
        let off = format!("no-{long}");
        command = command
            .mut_arg(&id, |arg| arg.overrides_with(off.clone()))
            .arg(
                clap::Arg::new(off.clone())
                    .long(off.clone())
                    .alias(off.replace('-', "_"))
                    .action(clap::ArgAction::SetTrue)
                    .overrides_with(id)
                    .hide(true),
            );
    }
    command.mut_subcommands(puppet_spellings)
}

/// Prints what the command line got wrong (or the help and version it
/// asked for). Usage errors exit 1, as Puppet's do: the argument parser's
/// own 2 would read as "changes applied" to a script passing
/// `--detailed-exitcodes`.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    // Printing fails only when the terminal is gone; there is nothing
    // left to tell then.
    let _ = error.print();
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

/// The error and its causes on one line, as `{:#}` would print them, except
/// that a cause whose text the message already contains is left out: many
/// library errors name their cause in their own message (Puppet's habit of
/// "Could not X: reason"), and repeating it would print the reason twice.
fn describe(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// Ends the process without the allocator's teardown. At exit mimalloc
/// collects its heaps and returns their pages to the kernel one range at a
/// time, which took several milliseconds after a run of thousands of
/// resources, for memory the kernel reclaims at once anyway. Everything
/// the process wrote is flushed first; nothing else runs at exit.
fn exit_now(code: ExitCode) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let raw = (0..=u8::MAX)
        .find(|&value| ExitCode::from(value) == code)
        .map_or(1, i32::from);
    // SAFETY: _exit(2) ends the process; it takes a plain integer and
    // touches no memory of ours.
    unsafe { libc::_exit(raw) }
}

/// Asks the kernel not to back this process with transparent huge pages.
/// mimalloc marks its arena as suitable for them, and each fault then zeroes
/// a whole 2 MB page: for a short run that touches memory sparsely this
/// raised the peak memory of a 5,000-file apply by half (55 MB against
/// 38 MB) and spent time clearing pages that were never used. The flag is
/// checked at fault time, so setting it here also covers the arena that was
/// reserved before `main`.
fn disable_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes plain integer arguments and touches
    // no memory of ours; a kernel without it returns an error, ignored.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Apply {
            catalog: Some(catalog),
            run,
            ..
        } => {
            apply::set_modulepath();
            apply::apply_catalog_file(&catalog, &run)
        }
        Command::Apply {
            file,
            execute,
            certname,
            strict_variables,
            catalog_only,
            catalog: None,
            storeconfigs,
            run,
        } => {
            let node_name = certname.unwrap_or_else(host_name);
            let storage = storeconfigs.open(&cli.env, &node_name)?;
            apply_manifest(
                file.as_deref(),
                execute,
                node_name,
                strict_variables,
                catalog_only,
                storage,
                &run,
            )
        }
        Command::Catalog {
            command: CatalogCommand::Compile(args),
        } => catalog::compile(args, &cli.env),
        Command::Catalog {
            command: CatalogCommand::Diff(args),
        } => catalog_diff::diff(args, &cli.env),
        Command::Catalog {
            command: CatalogCommand::Apply { file, run },
        } => {
            apply::set_modulepath();
            apply::apply_catalog_file(&file, &run)
        }
        Command::Filebucket { command } => filebucket::run(command),
        Command::Facts(args) => facts::run(args),
        Command::Lookup(args) => lookup::run(args, &cli.env),
        Command::Report { command } => report::run(command),
        Command::Ca(args) => ca::run(args),
        Command::Config(args) => config::run(args, &cli.env),
        Command::Module(args) => module::run(args),
        Command::Epp(args) => epp::run(args),
        Command::Server(args) => server::run(*args, &cli.env),
        Command::Storage(args) => storage::run(args, &cli.env),
        Command::Node(args) => node::run(args, &cli.env),
        Command::Agent(args) => agent::run(args, &cli.env),
        Command::Completions(args) => generate::completions::<Cli>(&args),
        Command::Man(args) => generate::man::<Cli>(&args),
        Command::Describe(args) => describe::describe(args),
        Command::Doc(args) => describe::doc(args),
        Command::Resource(args) => resource::run(args),
        Command::Parser {
            command: ParserCommand::Validate { paths, epp },
        } => validate(&paths, epp),
        Command::Parser {
            command: ParserCommand::Dump { file, no_spans },
        } => dump_file(&file, no_spans),
        Command::Help {
            command,
            subcommand,
        } => subcommand::help::<Cli>(command.as_deref(), subcommand.as_deref()),
        Command::External(args) => subcommand::run(&args),
    }
}

fn read_source(path: &Path) -> Result<SourceFile> {
    let bytes =
        std::fs::read(path).with_context(|| format!("Could not read {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not valid UTF-8", path.display()))?;
    Ok(SourceFile::new(path.display().to_string(), text))
}

/// Every file to check below `path`, in a stable order.
fn collect_files(path: &Path, epp: bool, out: &mut Vec<(PathBuf, SourceKind)>) -> Result<()> {
    let metadata =
        std::fs::metadata(path).with_context(|| format!("Could not read {}", path.display()))?;
    if !metadata.is_dir() {
        let kind = if epp {
            SourceKind::Epp
        } else {
            SourceKind::from_path(path)
        };
        out.push((path.to_path_buf(), kind));
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("Could not list {}", path.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect_files(&entry, epp, out)?;
        } else if entry.extension().is_some_and(|ext| ext == "pp") {
            out.push((entry, SourceKind::Manifest));
        } else if epp && entry.extension().is_some_and(|ext| ext == "epp") {
            out.push((entry, SourceKind::Epp));
        }
    }
    Ok(())
}

fn validate(paths: &[PathBuf], epp: bool) -> Result<ExitCode> {
    let mut files = Vec::new();
    for path in paths {
        collect_files(path, epp, &mut files)?;
    }
    let rich = std::io::stderr().is_terminal();
    let mut errors = 0usize;
    for (path, kind) in files {
        let source = read_source(&path)?;
        let checked = marionette_syntax::check(source.text(), kind);
        for diagnostic in &checked.diagnostics {
            errors += usize::from(diagnostic.is_error());
            let text = if rich {
                source.snippet(diagnostic)
            } else {
                source.one_line(diagnostic)
            };
            errln!("{}: {}", diagnostic.severity.label(), text);
        }
    }
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn dump_file(path: &Path, no_spans: bool) -> Result<ExitCode> {
    let source = read_source(path)?;
    let checked = marionette_syntax::check(source.text(), SourceKind::from_path(path));
    let options = dump::DumpOptions {
        spans: !no_spans,
        parens: true,
    };
    out!("{}", dump::dump(&checked.program, options));
    for diagnostic in &checked.diagnostics {
        errln!(
            "{}: {}",
            diagnostic.severity.label(),
            source.one_line(diagnostic)
        );
    }
    let failed = checked.diagnostics.iter().any(|d| d.is_error());
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The host's name, Puppet's default certname.
/// Writes text to standard output; a reader that went away (`| head`)
/// ends the output quietly rather than with a panic.
pub(crate) fn print_stdout(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

pub(crate) fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "localhost".into())
}

fn apply_manifest(
    file: Option<&Path>,
    execute: Option<String>,
    node_name: String,
    strict_variables: bool,
    catalog_only: bool,
    storage: Option<std::sync::Arc<storage::Storeconfigs>>,
    run: &apply::RunArgs,
) -> Result<ExitCode> {
    let manifests = match (file, execute) {
        (_, Some(code)) => vec![SourceFile::new("<command line>", code)],
        (Some(path), None) if path.as_os_str() != "-" => {
            if !path.exists() {
                anyhow::bail!("Could not find file {}", path.display());
            }
            // `puppet apply` names its manifest from the root in messages
            // and in the catalog, wherever it runs (`catalog compile`
            // keeps the path as given).
            catalog::read_manifests(&environment::absolute(path))?
        }
        // Puppet reads the code from standard input when given no file.
        _ => {
            let mut code = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut code)
                .context("Could not read the manifest from standard input")?;
            vec![SourceFile::new("<command line>", code)]
        }
    };
    if catalog_only {
        return catalog::compile_local(manifests, node_name, strict_variables, storage.as_ref());
    }
    let log = apply::destinations(run)?;
    apply::set_modulepath();
    let held = apply::take_lock()?;
    match catalog::compile_for_apply(
        manifests,
        node_name,
        strict_variables,
        storage.as_ref(),
        &log,
    ) {
        Some((catalog, facts, seconds)) => {
            let ran = apply::run(&catalog, facts, run, Some(seconds), held, &log, None);
            if let Some(storage) = &storage
                && storage::reports_to_storage()
                && let Ok(apply::Ran {
                    report: Some(report),
                    ..
                }) = &ran
                && let Err(error) = storage.store_report(report)
            {
                log.emit(marionette_ral::Level::Err, "", &error);
            }
            // A catalog of thousands of resources takes milliseconds to free.
            marionette_values::parallel::drop_aside(catalog);
            ran.map(|ran| ran.code)
        }
        None => Ok(ExitCode::FAILURE),
    }
}
