//! Settings from `puppet.conf`-style files: `[main]`, then the section of
//! the command (`[server]` or the older `[master]` for `server`, `[agent]`
//! for `agent`, `[user]` for the others), with Puppet's setting names.
//! They become the command's options, placed before the ones given on the
//! command line, so that those win.
//!
//! The files, the first to set a setting winning (so Marionette's own file
//! overrides Puppet's, and a setting only Puppet's file has is taken from
//! it, which keeps a migrated machine's settings):
//!
//! 1. Marionette's own: `--config FILE`, else `/etc/marionette/puppet.conf`
//!    (left out when `--confdir` is given: that names the file);
//! 2. Puppet's: `--confdir DIR`'s `puppet.conf`, else, as root,
//!    `/etc/puppetlabs/puppet/puppet.conf` and then Debian's
//!    `/etc/puppet/puppet.conf`, and for other users
//!    `~/.puppetlabs/etc/puppet/puppet.conf`, where Puppet reads them.
//!
//! Values may name other settings as Puppet's do (`ssldir = $vardir/ssl`):
//! `$name` and `${name}` are the setting's value, from the command line,
//! the files, or its default (`$confdir`, `$codedir`, `$vardir`, ...).
//! `MARIONETTE_TEST_SYSCONFDIR` moves `/etc` in these paths; it exists for
//! the tests alone.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::environment::{EnvArgs, join_path};

/// A setting the commands understand: its name in `puppet.conf`, the
/// option it becomes, whether that option is a switch (`true` gives it,
/// anything else leaves it out), and the commands that take it.
struct Setting {
    name: &'static str,
    option: &'static str,
    switch: bool,
    commands: &'static [&'static str],
}

/// The commands that take the global options; a file's settings become
/// options of these alone (an external subcommand gets its arguments as
/// written).
const ALL: &[&str] = &[
    "apply",
    "agent",
    "server",
    "catalog",
    "lookup",
    "resource",
    "describe",
    "facts",
    "config",
    "ca",
    "storage",
    "filebucket",
    "report",
];
const RUNS: &[&str] = &["apply", "agent"];

const SETTINGS: &[Setting] = &[
    Setting {
        name: "environment",
        option: "--environment",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "environmentpath",
        option: "--environmentpath",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "modulepath",
        option: "--modulepath",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "basemodulepath",
        option: "--basemodulepath",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "hiera_config",
        option: "--hiera-config",
        switch: false,
        commands: ALL,
    },
    // Puppet reads `confdir` from the command line only: it says where
    // the file is.
    Setting {
        name: "confdir",
        option: "--confdir",
        switch: false,
        commands: &[],
    },
    Setting {
        name: "codedir",
        option: "--codedir",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "vardir",
        option: "--vardir",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "logdir",
        option: "--logdir",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "rundir",
        option: "--rundir",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "certname",
        option: "--certname",
        switch: false,
        commands: &["apply", "agent", "server", "filebucket", "storage"],
    },
    Setting {
        name: "ssldir",
        option: "--ssldir",
        switch: false,
        commands: ALL,
    },
    Setting {
        name: "keylength",
        option: "--keylength",
        switch: false,
        commands: &["agent", "server", "ca"],
    },
    Setting {
        name: "exclude_unchanged_resources",
        option: "--exclude-unchanged-resources",
        switch: true,
        commands: RUNS,
    },
    Setting {
        name: "noop",
        option: "--noop",
        switch: true,
        commands: RUNS,
    },
    Setting {
        name: "show_diff",
        option: "--show_diff",
        switch: true,
        commands: RUNS,
    },
    Setting {
        name: "server",
        option: "--server",
        switch: false,
        commands: &["agent", "filebucket"],
    },
    Setting {
        name: "serverport",
        option: "--serverport",
        switch: false,
        commands: &["agent", "filebucket"],
    },
    Setting {
        name: "masterport",
        option: "--serverport",
        switch: false,
        commands: &["agent", "filebucket"],
    },
    Setting {
        name: "waitforcert",
        option: "--waitforcert",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "ssl_trust_store",
        option: "--ssl_trust_store",
        switch: false,
        commands: RUNS,
    },
    Setting {
        name: "http_connect_timeout",
        option: "--http-connect-timeout",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "http_read_timeout",
        option: "--http-read-timeout",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "runinterval",
        option: "--runinterval",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "splay",
        option: "--splay",
        switch: true,
        commands: &["agent"],
    },
    Setting {
        name: "splaylimit",
        option: "--splaylimit",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "ca_fingerprint",
        option: "--ca-fingerprint",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "csr_attributes",
        option: "--csr-attributes",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "autosign",
        option: "--autosign",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "dns_alt_names",
        option: "--dns-alt-names",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "external_nodes",
        option: "--external-nodes",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "environment_timeout",
        option: "--environment-timeout",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "manifest",
        option: "--manifest",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "storeconfigs",
        option: "--storeconfigs",
        switch: true,
        commands: &["server"],
    },
    Setting {
        name: "storeconfigs_backend",
        option: "--storeconfigs-backend",
        switch: false,
        commands: &["server"],
    },
    // PuppetDB's settings, also under PuppetDB's spelling (`node-ttl`,
    // read as `node_ttl`).
    Setting {
        name: "node_ttl",
        option: "--node-ttl",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "node_purge_ttl",
        option: "--node-purge-ttl",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "report_ttl",
        option: "--report-ttl",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "node_purge_gc_batch_limit",
        option: "--node-purge-gc-batch-limit",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "resource_events_ttl",
        option: "--resource-events-ttl",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "gc_interval",
        option: "--gc-interval",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "storage_url",
        option: "--storage-url",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "plain_bind",
        option: "--plain-bind",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "certificate_allowlist",
        option: "--certificate-allowlist",
        switch: false,
        commands: &["server", "storage"],
    },
    Setting {
        name: "reports",
        option: "--reports",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "reporturl",
        option: "--reporturl",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "cadir",
        option: "--cadir",
        switch: false,
        commands: &["server", "ca", "storage"],
    },
];

/// The root of the system's settings files: `/etc`, or where the tests
/// put their own (`MARIONETTE_TEST_SYSCONFDIR`, for tests only).
pub(crate) fn sysconfdir() -> PathBuf {
    std::env::var_os("MARIONETTE_TEST_SYSCONFDIR")
        .map_or_else(|| PathBuf::from("/etc"), PathBuf::from)
}

/// The settings files to read, in order of precedence, each with whether
/// it was named (a named file must exist).
fn files_to_read(
    config: Option<PathBuf>,
    confdir: Option<&Path>,
    root: bool,
) -> Vec<(PathBuf, bool)> {
    let etc = sysconfdir();
    let mut files = Vec::new();
    match config {
        Some(path) => files.push((path, true)),
        None if confdir.is_none() => files.push((etc.join("marionette/puppet.conf"), false)),
        None => {}
    }
    match confdir {
        Some(dir) => files.push((dir.join("puppet.conf"), false)),
        None if root => {
            files.push((etc.join("puppetlabs/puppet/puppet.conf"), false));
            files.push((etc.join("puppet/puppet.conf"), false));
        }
        None => files.push((
            crate::environment::home(".puppetlabs/etc/puppet/puppet.conf"),
            false,
        )),
    }
    files
}

/// One `name = value` line of a settings file, under its section.
#[derive(Clone, Debug)]
struct Entry {
    section: String,
    name: String,
    value: String,
}

/// A settings file that was read.
#[derive(Debug)]
struct SettingsFile {
    path: PathBuf,
    entries: Vec<Entry>,
}

/// Where a setting's value came from, as `config print` says it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Origin {
    File { path: PathBuf, section: String },
    CommandLine,
    Default,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File { path, section } => write!(f, "{} [{section}]", path.display()),
            Origin::CommandLine => f.write_str("command line"),
            Origin::Default => f.write_str("default"),
        }
    }
}

/// What this process read: the settings files, in order of precedence,
/// and the settings given on the command line (a switch as `true`).
#[derive(Debug, Default)]
struct Loaded {
    files: Vec<SettingsFile>,
    given: Vec<(String, String)>,
}

static LOADED: OnceLock<Loaded> = OnceLock::new();

impl Loaded {
    /// The settings for `sections` (after `[main]`, which they override
    /// within one file), the first file to set one winning, each with
    /// its value as written and where it is.
    fn merged(&self, sections: &[&str]) -> Vec<(String, String, Origin)> {
        let mut settings: Vec<(String, String, Origin)> = Vec::new();
        for file in &self.files {
            let mut own: Vec<&Entry> = Vec::new();
            let main = file.entries.iter().filter(|e| e.section == "main");
            let specific = file
                .entries
                .iter()
                .filter(|e| sections.contains(&e.section.as_str()));
            for entry in main.chain(specific) {
                own.retain(|e| e.name != entry.name);
                own.push(entry);
            }
            for entry in own {
                if !settings.iter().any(|(name, _, _)| *name == entry.name) {
                    settings.push((
                        entry.name.clone(),
                        entry.value.clone(),
                        Origin::File {
                            path: file.path.clone(),
                            section: entry.section.clone(),
                        },
                    ));
                }
            }
        }
        settings
    }

    /// The value of setting `name` for `sections`, interpolated: from the
    /// command line, else the files, else its default (for the settings
    /// others are commonly written with); `None` for a setting unset.
    fn value(&self, name: &str, sections: &[&str]) -> Option<String> {
        self.lookup(name, &self.merged(sections), 0)
    }

    fn lookup(
        &self,
        name: &str,
        merged: &[(String, String, Origin)],
        depth: usize,
    ) -> Option<String> {
        // Settings that name each other in a loop are left as written.
        if depth > 8 {
            return None;
        }
        if let Some((_, value)) = self.given.iter().find(|(n, _)| n == name) {
            return Some(value.clone());
        }
        if let Some((_, value, _)) = merged.iter().find(|(n, _, _)| n == name) {
            return Some(expand(value, &|other| {
                self.lookup(other, merged, depth + 1)
            }));
        }
        // The directories this one's default is made from, and only
        // those: looking each up looks up what it is made from in turn.
        let made_from: &[&str] = match name {
            "confdir" | "codedir" | "vardir" => &[],
            "ssldir" | "logdir" | "rundir" => &["vardir"],
            "environmentpath" => &["codedir"],
            "hiera_config" => &["codedir", "confdir"],
            _ => return None,
        };
        let dir = |other: &str| {
            made_from
                .contains(&other)
                .then(|| self.lookup(other, merged, depth + 1).map(PathBuf::from))
                .flatten()
        };
        let defaults = EnvArgs {
            vardir: dir("vardir"),
            codedir: dir("codedir"),
            confdir: dir("confdir"),
            ..EnvArgs::default()
        };
        let path = match name {
            "confdir" => defaults.confdir(),
            "codedir" => defaults.codedir(),
            "vardir" => defaults.vardir(),
            "ssldir" => defaults.ssldir(),
            "logdir" => defaults.logdir(),
            "rundir" => defaults.rundir(),
            "environmentpath" => defaults.environmentpath(),
            "hiera_config" => defaults.hiera_config(),
            _ => return None,
        };
        Some(path.display().to_string())
    }

    /// Where the value of `name` comes from.
    fn origin(&self, name: &str, sections: &[&str]) -> Origin {
        if self.given.iter().any(|(n, _)| n == name) {
            return Origin::CommandLine;
        }
        self.merged(sections)
            .into_iter()
            .find(|(n, _, _)| n == name)
            .map_or(Origin::Default, |(_, _, origin)| origin)
    }
}

/// `$name` and `${name}` replaced by the settings `lookup` gives; a `$`
/// that names no known setting is kept.
fn expand(value: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, length) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => ("", 0),
            },
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        match (!name.is_empty()).then(|| lookup(name)).flatten() {
            Some(known) => {
                out.push_str(&known);
                rest = &after[length..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The sections a command reads after `[main]`.
fn sections(command: &str) -> &'static [&'static str] {
    match command {
        // `ca` administers the server's CA: it reads the server's
        // settings (`cadir`), as `puppetserver ca` does.
        "server" | "master" | "ca" | "storage" => &["server", "master"],
        "agent" => &["agent"],
        _ => &["user"],
    }
}

/// The value `option` (or its spelling with underscores) has on the
/// command line, up to `--`: a switch given is `true`.
fn given(args: &[OsString], option: &str, switch: bool) -> Option<String> {
    let underscored = format!("--{}", option[2..].replace('-', "_"));
    let mut found = None;
    let mut iter = args.iter().map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (arg.as_ref(), None),
        };
        if name != option && name != underscored {
            continue;
        }
        found = if switch {
            Some(value.unwrap_or_else(|| "true".into()))
        } else {
            value.or_else(|| iter.next().map(|v| v.into_owned()))
        };
    }
    found
}

/// The command line with the files' settings placed after the command's
/// name; `--config FILE` itself is taken out.
pub(crate) fn with_settings(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let (config, args) = take_config(args);
    let given: Vec<(String, String)> = SETTINGS
        .iter()
        .filter_map(|s| Some((s.name.to_string(), given(&args, s.option, s.switch)?)))
        .collect();
    let confdir = given
        .iter()
        .find(|(name, _)| name == "confdir")
        .map(|(_, dir)| PathBuf::from(dir));
    let mut files = Vec::new();
    for (path, named) in files_to_read(config, confdir.as_deref(), crate::environment::is_root()) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(_) if !named => continue,
            Err(e) => {
                return Err(format!(
                    "Could not read the configuration {}: {e}",
                    path.display()
                ));
            }
        };
        let entries = parse(&text, &path)?;
        files.push(SettingsFile { path, entries });
    }
    let loaded = Loaded { files, given };
    let args = insert_settings(args, &loaded);
    // Kept for `config print`; a second reading (the unit tests') keeps
    // the first.
    let _ = LOADED.set(loaded);
    Ok(args)
}

/// The value of setting `name` for a command that reads `[user]` (after
/// `[main]`), interpolated: for the settings such a command reads itself
/// rather than as options (`storeconfigs` for `apply` and `catalog
/// compile`, whose subcommand the options could not follow).
pub(crate) fn user_setting(name: &str) -> Option<String> {
    LOADED.get()?.value(name, &["user"])
}

/// `args` with the settings of `loaded` the command takes placed after
/// its name.
fn insert_settings(mut args: Vec<OsString>, loaded: &Loaded) -> Vec<OsString> {
    // The command: the first argument that is neither an option nor the
    // value of a global option given before it.
    let with_values = global_options_with_values();
    let mut at = None;
    let mut skip_value = false;
    for (index, arg) in args.iter().enumerate().skip(1) {
        let text = arg.to_string_lossy();
        if skip_value {
            skip_value = false;
        } else if text.starts_with('-') {
            skip_value = with_values.iter().any(|option| *option == text);
        } else {
            at = Some(index);
            break;
        }
    }
    let Some(at) = at else {
        return args;
    };
    let command = args[at].to_string_lossy().into_owned();
    let sections = sections(&command);
    let mut inserted: Vec<OsString> = Vec::new();
    let merged = loaded.merged(sections);
    for (name, value, _) in &merged {
        let Some(setting) = SETTINGS
            .iter()
            .find(|s| s.name == name && s.commands.contains(&command.as_str()))
        else {
            continue;
        };
        // The file's value, with the settings it names from wherever they
        // come (`--vardir` given moves `$vardir/ssl`).
        let value = expand(value, &|other| loaded.lookup(other, &merged, 1));
        if setting.switch {
            if value == "true" {
                inserted.push(setting.option.into());
            }
        } else {
            inserted.push(setting.option.into());
            inserted.push(value.into());
        }
    }
    args.splice(at + 1..at + 1, inserted);
    args
}

/// The global options that take a value as the next argument, in every
/// spelling, from the command line's definition.
fn global_options_with_values() -> Vec<String> {
    let command = crate::command();
    command
        .get_arguments()
        .filter(|arg| arg.is_global_set() && arg.get_action().takes_values())
        .flat_map(|arg| {
            arg.get_long()
                .into_iter()
                .chain(arg.get_all_aliases().unwrap_or_default())
                .map(|long| format!("--{long}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `marionette config print`.
#[derive(clap::Args, Debug)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    action: ConfigAction,
}

#[derive(clap::Subcommand, Debug)]
enum ConfigAction {
    /// Print settings: one setting's value alone, or `name = value` lines;
    /// every setting Marionette uses when none is named (or `all`), each
    /// followed by where its value comes from.
    Print {
        /// The settings to print (`all`: every one).
        names: Vec<String>,
        /// The section of the files to read after `[main]` (`user`,
        /// `agent`, `server`).
        #[arg(long, default_value = "user")]
        section: String,
        /// Say where each value comes from (a file and its section, the
        /// command line, or the default), also for settings named.
        #[arg(long, short = 'v')]
        verbose: bool,
    },
}

/// Prints settings as `puppet config print` does. The environment's and
/// the directories' settings come through `env` (the files' values are
/// options by now); the others from the files, else defaults.
pub(crate) fn run(args: ConfigArgs, env: &EnvArgs) -> anyhow::Result<std::process::ExitCode> {
    let ConfigAction::Print {
        names,
        section,
        verbose,
    } = args.action;
    let loaded = LOADED.get_or_init(Loaded::default);
    let sections = sections(&section);
    let environment = env.resolve();
    let mut cli = crate::command();
    cli.build();
    let value = |name: &str| -> Option<String> {
        // What the environment and the directories resolved to, files
        // and command line included.
        let path = match name {
            "environment" => return Some(environment.name.clone()),
            "modulepath" => return Some(join_path(&environment.modulepath)),
            "basemodulepath" => return Some(join_path(&env.basemodulepath())),
            "manifest" => return Some(environment_manifests(env)),
            "config" => return Some(config_file(loaded, env).display().to_string()),
            "environmentpath" => env.environmentpath(),
            "hiera_config" => env.hiera_config(),
            "confdir" => env.confdir(),
            "codedir" => env.codedir(),
            "vardir" => env.vardir(),
            "ssldir" => env.ssldir(),
            "logdir" => env.logdir(),
            "rundir" => env.rundir(),
            "cadir" => env.vardir().join("ca"),
            _ => {
                if let Some(value) = loaded.value(name, sections) {
                    return Some(value);
                }
                // Defaults the command definitions hold are read from them,
                // so that this listing cannot drift from what the commands
                // do; the rest are computed when the command runs.
                if let Some(default) = declared_default(&cli, name) {
                    return Some(default);
                }
                let default = match name {
                    "certname" => crate::host_name(),
                    // The longest splay is the run interval unless set.
                    "splaylimit" => loaded
                        .value("runinterval", sections)
                        .or_else(|| declared_default(&cli, "runinterval"))
                        .unwrap_or_default(),
                    _ if SETTINGS.iter().any(|s| s.name == name) => String::new(),
                    _ => return None,
                };
                return Some(default);
            }
        };
        Some(path.display().to_string())
    };
    let all = names.is_empty() || names == ["all"];
    let mut names = if all {
        let mut all: Vec<String> = SETTINGS.iter().map(|s| s.name.to_string()).collect();
        all.push("config".into());
        all
    } else {
        names
    };
    if let [name] = names.as_slice()
        && !verbose
    {
        // One setting: its value alone (nothing for an unknown one), as
        // Puppet prints it.
        outln!("{}", value(name).unwrap_or_default());
        return Ok(std::process::ExitCode::SUCCESS);
    }
    names.sort();
    names.dedup();
    for name in names {
        if let Some(value) = value(&name) {
            if all || verbose {
                let origin = match name.as_str() {
                    "config" => Origin::Default,
                    _ => loaded.origin(&name, sections),
                };
                outln!("{name} = {value}  # {origin}");
            } else {
                outln!("{name} = {value}");
            }
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The settings file Marionette reads first: the first read, else
/// `$confdir/puppet.conf`, as Puppet names it.
fn config_file(loaded: &Loaded, env: &EnvArgs) -> PathBuf {
    loaded
        .files
        .first()
        .map_or_else(|| env.confdir().join("puppet.conf"), |f| f.path.clone())
}

/// The default a command's definition gives the option a setting becomes
/// (`runinterval` is `agent --runinterval`'s 1800), if any.
/// `cli` is the built command definition, whose commands hold the global
/// options too.
fn declared_default(cli: &clap::Command, name: &str) -> Option<String> {
    let setting = SETTINGS.iter().find(|s| s.name == name)?;
    let long = setting.option.trim_start_matches("--");
    setting.commands.iter().find_map(|command| {
        let arg = cli
            .find_subcommand(command)?
            .get_arguments()
            .find(|arg| arg.get_long() == Some(long))?;
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        (!defaults.is_empty()).then(|| defaults.join(","))
    })
}

/// The main manifests of the chosen environment: its `manifests`
/// directory.
fn environment_manifests(env: &EnvArgs) -> String {
    let name = env.environment.as_deref().unwrap_or("production");
    env.environmentpath()
        .join(name)
        .join("manifests")
        .display()
        .to_string()
}

/// `--config FILE` (or `--config=FILE`) taken out of the arguments.
fn take_config(args: Vec<OsString>) -> (Option<PathBuf>, Vec<OsString>) {
    let mut path = None;
    let mut rest = Vec::with_capacity(args.len());
    let mut iter = args.into_iter();
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--config" {
            path = iter.next().map(PathBuf::from);
        } else if let Some(value) = text.strip_prefix("--config=") {
            path = Some(PathBuf::from(value));
        } else {
            rest.push(arg);
        }
    }
    (path, rest)
}

/// The `name = value` lines of a settings file, each under its section
/// (`main` before the first header).
fn parse(text: &str, path: &Path) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut current = "main".to_string();
    for (number, line) in text.lines().enumerate() {
        let line = line
            .split_once('#')
            .map_or(line, |(before, _)| before)
            .trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name.trim().to_string();
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            return Err(format!(
                "Could not parse {} line {}: '{line}' is not a setting",
                path.display(),
                number + 1
            ));
        };
        // PuppetDB's settings are spelled with dashes in its own files.
        let name = name.trim();
        let underscored = name.replace('-', "_");
        let name = if SETTINGS.iter().any(|s| s.name == underscored) {
            underscored
        } else {
            name.to_string()
        };
        entries.push(Entry {
            section: current.clone(),
            name,
            value: value.trim().to_string(),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &[&str]) -> Vec<OsString> {
        text.iter().map(OsString::from).collect()
    }

    #[test]
    fn puppetdbs_settings_reach_the_server_and_the_storage() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("puppet.conf");
        std::fs::write(
            &file,
            "[server]\nnode_ttl = 3d\nnode-purge-ttl = 9d\nreport_ttl = 1h\ncertificate-allowlist = /etc/m/allow\ncertname = puppet.example\n",
        )
        .unwrap();
        let config = file.display().to_string();
        for command in [&["server"][..], &["storage", "serve"]] {
            let mut given = vec!["marionette", "--config", &config];
            given.extend_from_slice(command);
            let got = with_settings(args(&given)).unwrap();
            let mut wanted = vec!["marionette", command[0]];
            wanted.extend([
                "--node-ttl",
                "3d",
                "--node-purge-ttl",
                "9d",
                "--report-ttl",
                "1h",
                "--certificate-allowlist",
                "/etc/m/allow",
                "--certname",
                "puppet.example",
            ]);
            wanted.extend_from_slice(&command[1..]);
            assert_eq!(got, args(&wanted), "{command:?}");
        }
    }

    #[test]
    fn sections_become_options_before_the_command_lines() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("puppet.conf");
        std::fs::write(
            &file,
            "# comment\n[main]\nvardir = /var/lib/m\nssldir = $vardir/ssl\n[agent]\nserver = puppet.example.com\nsplay = true\nruninterval = 600\n[server]\nautosign = true\n",
        )
        .unwrap();
        let config = file.display().to_string();
        let got = with_settings(args(&[
            "marionette",
            "--config",
            &config,
            "agent",
            "-t",
            "--runinterval",
            "60",
        ]))
        .unwrap();
        assert_eq!(
            got,
            args(&[
                "marionette",
                "agent",
                "--vardir",
                "/var/lib/m",
                "--ssldir",
                "/var/lib/m/ssl",
                "--server",
                "puppet.example.com",
                "--splay",
                "--runinterval",
                "600",
                "-t",
                "--runinterval",
                "60"
            ])
        );
        let got = with_settings(args(&[
            "marionette",
            "--environment",
            "prod",
            "--config",
            &config,
            "server",
        ]))
        .unwrap();
        assert_eq!(
            got,
            args(&[
                "marionette",
                "--environment",
                "prod",
                "server",
                "--vardir",
                "/var/lib/m",
                "--ssldir",
                "/var/lib/m/ssl",
                "--autosign",
                "true"
            ])
        );
        let got = with_settings(args(&["marionette", "server", "--config", &config])).unwrap();
        assert_eq!(
            got,
            args(&[
                "marionette",
                "server",
                "--vardir",
                "/var/lib/m",
                "--ssldir",
                "/var/lib/m/ssl",
                "--autosign",
                "true"
            ])
        );
    }

    #[test]
    fn a_line_that_is_not_a_setting_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("puppet.conf");
        std::fs::write(&file, "[main]\nnonsense\n").unwrap();
        let config = file.display().to_string();
        let error = with_settings(args(&["marionette", "--config", &config, "agent"])).unwrap_err();
        assert!(
            error.contains("line 2") && error.contains("'nonsense'"),
            "{error}"
        );
    }
}
