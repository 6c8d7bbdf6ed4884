//! Settings from a `puppet.conf`-style file: `[main]`, then the section of
//! the command (`[server]` or the older `[master]` for `server`, `[agent]`
//! for `agent`, `[user]` for the others), with Puppet's setting names.
//! They become the command's options, placed before the ones given on the
//! command line, so that those win. The file is `--config FILE`, or
//! `/etc/marionette/puppet.conf` when it exists.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The global options that take a value as the next argument.
const GLOBAL_WITH_VALUES: &[&str] = &[
    "--environment",
    "--environmentpath",
    "--modulepath",
    "--basemodulepath",
    "--hiera-config",
];

/// The file read when no `--config` is given.
const DEFAULT: &str = "/etc/marionette/puppet.conf";

/// A setting the commands understand: its name in `puppet.conf`, the
/// option it becomes, whether that option is a switch (`true` gives it,
/// anything else leaves it out), and the commands that take it.
struct Setting {
    name: &'static str,
    option: &'static str,
    switch: bool,
    commands: &'static [&'static str],
}

const ALL: &[&str] = &[
    "apply", "agent", "server", "catalog", "lookup", "resource", "describe", "facts", "config",
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
    Setting {
        name: "vardir",
        option: "--vardir",
        switch: false,
        commands: &["apply", "agent", "server"],
    },
    Setting {
        name: "certname",
        option: "--certname",
        switch: false,
        commands: &["apply", "agent", "server"],
    },
    Setting {
        name: "ssldir",
        option: "--ssldir",
        switch: false,
        commands: &["agent", "server"],
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
        commands: &["agent"],
    },
    Setting {
        name: "serverport",
        option: "--serverport",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "masterport",
        option: "--serverport",
        switch: false,
        commands: &["agent"],
    },
    Setting {
        name: "waitforcert",
        option: "--waitforcert",
        switch: false,
        commands: &["agent"],
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
    Setting {
        name: "reports",
        option: "--reports",
        switch: false,
        commands: &["server"],
    },
    Setting {
        name: "cadir",
        option: "--cadir",
        switch: false,
        commands: &["server", "ca"],
    },
];

/// The command line with the file's settings placed after the command's
/// name; `--config FILE` itself is taken out.
pub(crate) fn with_settings(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let (path, mut args) = take_config(args);
    let explicit = path.is_some();
    let path = path.unwrap_or_else(|| PathBuf::from(DEFAULT));
    let _ = FILE.set(path.clone());
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(_) if !explicit => return Ok(args),
        Err(e) => {
            return Err(format!(
                "Could not read the configuration {}: {e}",
                path.display()
            ));
        }
    };
    // The command: the first argument that is neither an option nor the
    // value of a global option given before it.
    let mut at = None;
    let mut skip_value = false;
    for (index, arg) in args.iter().enumerate().skip(1) {
        let text = arg.to_string_lossy();
        if skip_value {
            skip_value = false;
        } else if text.starts_with('-') {
            skip_value = GLOBAL_WITH_VALUES.contains(&text.as_ref());
        } else {
            at = Some(index);
            break;
        }
    }
    let Some(at) = at else {
        return Ok(args);
    };
    let command = args[at].to_string_lossy().into_owned();
    let section = match command.as_str() {
        "server" => &["server", "master"][..],
        "agent" => &["agent"][..],
        _ => &["user"][..],
    };
    let settings = read(&text, section, &path)?;
    let mut inserted: Vec<OsString> = Vec::new();
    for (name, value) in settings {
        let Some(setting) = SETTINGS
            .iter()
            .find(|s| s.name == name && s.commands.contains(&command.as_str()))
        else {
            continue;
        };
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
    Ok(args)
}

/// The configuration file this command reads (given or the default).
static FILE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// `marionette config print`.
#[derive(clap::Args, Debug)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    action: ConfigAction,
}

#[derive(clap::Subcommand, Debug)]
enum ConfigAction {
    /// Print settings: one setting's value alone, or `name = value` lines
    /// (every setting Marionette uses when none is named).
    Print {
        /// The settings to print.
        names: Vec<String>,
        /// The section of the file to read after `[main]` (`user`,
        /// `agent`, `server`).
        #[arg(long, default_value = "user")]
        section: String,
    },
}

/// Prints settings as `puppet config print` does. The environment's
/// settings come through `env` (the file's values are options by now);
/// the others from the file's `[main]` and the section, else defaults.
pub(crate) fn run(
    args: ConfigArgs,
    env: &crate::environment::EnvArgs,
) -> anyhow::Result<std::process::ExitCode> {
    let ConfigAction::Print { names, section } = args.action;
    let path = FILE
        .get()
        .cloned()
        .unwrap_or_else(|| PathBuf::from(DEFAULT));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let sections: &[&str] = match section.as_str() {
        "server" | "master" => &["server", "master"],
        "agent" => &["agent"],
        _ => &["user"],
    };
    let from_file = read(&text, sections, &path).map_err(|e| anyhow::anyhow!(e))?;
    let environment = env.resolve();
    let mut cli = <crate::Cli as clap::CommandFactory>::command();
    cli.build();
    let join = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":")
    };
    let value = |name: &str| -> Option<String> {
        // What the environment resolved to, file and command line included.
        match name {
            "environment" => return Some(environment.name.clone()),
            "environmentpath" => return Some(env.environmentpath.display().to_string()),
            "modulepath" => return Some(join(&environment.modulepath)),
            "basemodulepath" => return Some(join(&env.basemodulepath())),
            "hiera_config" => {
                let settings = crate::environment::hiera_settings(env);
                return settings.global.map(|p| p.display().to_string());
            }
            "config" => return Some(path.display().to_string()),
            "confdir" => {
                return Some(
                    path.parent()
                        .map_or(String::new(), |p| p.display().to_string()),
                );
            }
            _ => {}
        }
        if let Some((_, value)) = from_file.iter().find(|(n, _)| n == name) {
            return Some(value.clone());
        }
        // Defaults the command definitions hold are read from them, so
        // that this listing cannot drift from what the commands do; the
        // rest are computed when the command runs.
        if let Some(default) = declared_default(&cli, name) {
            return Some(default);
        }
        let default = match name {
            "vardir" => crate::apply::vardir(None).display().to_string(),
            "cadir" => crate::apply::vardir(None).join("ca").display().to_string(),
            "ssldir" => crate::apply::vardir(None).join("ssl").display().to_string(),
            "certname" => crate::host_name(),
            "manifest" => environment_manifests(env),
            // The longest splay is the run interval unless set.
            "splaylimit" => from_file
                .iter()
                .find(|(n, _)| n == "runinterval")
                .map(|(_, v)| v.clone())
                .or_else(|| declared_default(&cli, "runinterval"))
                .unwrap_or_default(),
            _ if SETTINGS.iter().any(|s| s.name == name) => String::new(),
            _ => return None,
        };
        Some(default)
    };
    let mut names = if names.is_empty() {
        let mut all: Vec<String> = SETTINGS.iter().map(|s| s.name.to_string()).collect();
        all.extend(["config", "confdir"].map(String::from));
        all
    } else {
        names
    };
    if let [name] = names.as_slice() {
        // One setting: its value alone (nothing for an unknown one), as
        // Puppet prints it.
        outln!("{}", value(name).unwrap_or_default());
        return Ok(std::process::ExitCode::SUCCESS);
    }
    names.sort();
    names.dedup();
    for name in names {
        if let Some(value) = value(&name) {
            outln!("{name} = {value}");
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
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
fn environment_manifests(env: &crate::environment::EnvArgs) -> String {
    let name = env.environment.as_deref().unwrap_or("production");
    env.environmentpath
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

/// The settings of `[main]` and then of the command's sections, later
/// ones replacing earlier ones of the same name. `$vardir`-style
/// references to settings read before are expanded.
fn read(text: &str, sections: &[&str], path: &Path) -> Result<Vec<(String, String)>, String> {
    let mut main: Vec<(String, String)> = Vec::new();
    let mut own: Vec<(String, String)> = Vec::new();
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
        let entry = (name.trim().to_string(), value.trim().to_string());
        if current == "main" {
            main.push(entry);
        } else if sections.contains(&current.as_str()) {
            own.push(entry);
        }
    }
    let mut settings: Vec<(String, String)> = Vec::new();
    for (name, value) in main.into_iter().chain(own) {
        let value = expand(&value, &settings);
        settings.retain(|(n, _)| *n != name);
        settings.push((name, value));
    }
    Ok(settings)
}

/// `$name` and `${name}` replaced by settings already read.
fn expand(value: &str, known: &[(String, String)]) -> String {
    let mut out = value.to_string();
    for (name, known_value) in known {
        out = out
            .replace(&format!("${{{name}}}"), known_value)
            .replace(&format!("${name}"), known_value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &[&str]) -> Vec<OsString> {
        text.iter().map(OsString::from).collect()
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
