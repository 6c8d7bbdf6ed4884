//! `service` through systemd's `systemctl`.

use std::collections::HashMap;

use marionette_ral::{CommandSpec, Confine, Context, PropertyHash, ProviderDef, ProviderError};
use marionette_values::Value;

use super::{Action, Flavor, Job, Service, text};

pub(crate) struct Systemd;

/// `systemctl VERB -- NAME`: the `--` keeps a name starting with a dash
/// from being read as an option.
fn systemctl(verb: &str, name: &str) -> Vec<String> {
    vec![
        "systemctl".to_string(),
        verb.to_string(),
        "--".to_string(),
        name.to_string(),
    ]
}

/// What `systemctl is-enabled` says about a unit: its state word (empty
/// when it printed none) and whether it exited with 0.
fn is_enabled(job: &Job<'_>) -> Result<(String, bool), ProviderError> {
    let output = job.run(CommandSpec::new(&systemctl("is-enabled", &job.name())))?;
    // The state is the last line: for an init script without a unit,
    // systemctl first says that it asks systemd-sysv-install.
    let state = output
        .stdout
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty() && !line.contains(' '))
        .unwrap_or("")
        .to_string();
    Ok((state, output.success()))
}

/// The `enable` value of a unit file state, as `systemctl is-enabled`
/// answers with its exit status (0 means enabled), except `indirect`:
/// such a unit is only started through another one, and Puppet reports
/// it disabled.
fn enable_value(state: &str, exit_zero: bool) -> &'static str {
    if state == "indirect" || !exit_zero {
        "false"
    } else {
        "true"
    }
}

/// Unit file states that `systemctl is-enabled` exits with 0 for.
fn state_is_enabled(state: &str) -> bool {
    matches!(
        state,
        "enabled" | "enabled-runtime" | "static" | "alias" | "indirect" | "generated" | "transient"
    )
}

/// Parses `systemctl show --property=A --property=B` output.
fn show_properties(output: &str) -> HashMap<String, String> {
    output
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim().to_string(), value.trim().to_string()))
        .collect()
}

/// The units of `systemctl list-unit-files --type=service --no-legend`
/// with their state, keeping the states Puppet lists: a unit file of
/// another state (an alias, a generated or transient unit, a linked one)
/// is reached under another name or is not the administrator's.
fn parse_unit_files(output: &str) -> Vec<(String, String)> {
    const LISTED: &[&str] = &["enabled", "disabled", "masked", "indirect", "bad", "static"];
    output
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let unit = fields.next()?;
            let state = fields.next()?.to_ascii_lowercase();
            LISTED
                .contains(&state.as_str())
                .then(|| (unit.to_string(), state))
        })
        .collect()
}

/// The active state of each loaded unit, from `systemctl list-units
/// --type=service --all --no-legend --plain`.
fn parse_units(output: &str) -> HashMap<String, String> {
    output
        .lines()
        .filter_map(|line| {
            // Older systemctl versions mark failed units with a bullet
            // even with --plain.
            let line = line
                .trim_start()
                .trim_start_matches(['●', '*'])
                .trim_start();
            let mut fields = line.split_whitespace();
            let unit = fields.next()?;
            let _load = fields.next()?;
            let active = fields.next()?;
            Some((unit.to_string(), active.to_string()))
        })
        .collect()
}

impl Flavor for Systemd {
    fn command(&self, job: &Job<'_>, action: Action) -> Result<Option<Vec<String>>, ProviderError> {
        let verb = match action {
            Action::Start => "start",
            Action::Stop => "stop",
            Action::Status => "is-active",
            Action::Restart => "restart",
        };
        Ok(Some(systemctl(verb, &job.name())))
    }

    /// Reloads systemd when the unit file changed since it was loaded, so
    /// the start uses the new file, and unmasks a masked unit, which could
    /// not start otherwise.
    fn before_start(&self, job: &Job<'_>) -> Result<(), ProviderError> {
        let name = job.name();
        let output = job.run(CommandSpec::new(&[
            "systemctl",
            "show",
            "--property=NeedDaemonReload",
            "--property=UnitFileState",
            "--",
            &name,
        ]))?;
        let properties = show_properties(&output.stdout);
        if properties.get("NeedDaemonReload").map(String::as_str) == Some("yes") {
            job.debug("The unit file changed on disk: reloading systemd");
            job.run(CommandSpec::new(&["systemctl", "daemon-reload"]))?;
        }
        if properties
            .get("UnitFileState")
            .is_some_and(|state| state.starts_with("masked"))
        {
            change(job, "unmask")?;
        }
        Ok(())
    }

    /// `true`, `false` or `mask` (when the manifest asks for `mask` and the
    /// unit is masked). Units that cannot be enabled or disabled (`static`
    /// ones, which have no install section, and `indirect` ones) report the
    /// desired value, so they count as in sync rather than failing every
    /// run.
    fn enabled(&self, job: &Job<'_>) -> Result<Option<Value>, ProviderError> {
        let (state, exit_zero) = is_enabled(job)?;
        let desired = job.resource.text("enable");
        if state.starts_with("masked") && desired.as_deref() == Some("mask") {
            return Ok(Some(text("mask")));
        }
        if let Some(desired) = desired.filter(|d| d != "mask")
            && (state == "static" || state == "indirect")
        {
            job.debug(&format!(
                "The unit is {state}: it cannot be enabled or disabled, so enable is left alone"
            ));
            return Ok(Some(text(&desired)));
        }
        // An init script without a unit: systemctl says nothing useful
        // and the runlevel links tell.
        if state.is_empty() && !exit_zero {
            let links = super::debian::RcLinks::read(std::path::Path::new("/"));
            let name = job.name();
            let script = name.strip_suffix(".service").unwrap_or(&name);
            if links.has_links(script) {
                return Ok(Some(text(if links.enabled(script) {
                    "true"
                } else {
                    "false"
                })));
            }
        }
        Ok(Some(text(enable_value(&state, exit_zero))))
    }

    fn set_enabled(&self, job: &Job<'_>, value: &str) -> Result<(), ProviderError> {
        let (state, _) = is_enabled(job)?;
        match value {
            "true" => {
                if state.starts_with("masked") {
                    change(job, "unmask")?;
                }
                change(job, "enable")
            }
            "false" => change(job, "disable"),
            "mask" => {
                // A unit that exists is disabled first, so unmasking it
                // later does not bring back old links.
                if !state.is_empty() && state != "not-found" && !state.starts_with("masked") {
                    change(job, "disable")?;
                }
                change(job, "mask")
            }
            other => Err(ProviderError::new(format!(
                "cannot set enable to '{other}' with systemd"
            ))),
        }
    }

    /// Every service unit file, from one `list-unit-files` and one
    /// `list-units` call rather than one query per unit.
    fn instances(&self, cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        let files = cx.output(&[
            "systemctl",
            "list-unit-files",
            "--type=service",
            "--no-legend",
            "--no-pager",
            "--full",
        ])?;
        let units = cx.output(&[
            "systemctl",
            "list-units",
            "--type=service",
            "--all",
            "--no-legend",
            "--no-pager",
            "--full",
            "--plain",
        ])?;
        let active = parse_units(&units);
        Ok(parse_unit_files(&files)
            .into_iter()
            .map(|(unit, state)| {
                // `systemctl is-active` succeeds for these two states.
                let running = matches!(
                    active.get(&unit).map(String::as_str),
                    Some("active" | "reloading")
                );
                PropertyHash::from([
                    ("name".to_string(), text(&unit)),
                    (
                        "ensure".to_string(),
                        text(if running { "running" } else { "stopped" }),
                    ),
                    (
                        "enable".to_string(),
                        text(enable_value(&state, state_is_enabled(&state))),
                    ),
                ])
            })
            .collect())
    }

    /// Appends the unit's recent journal to a failed start or restart, as
    /// systemctl's own message only points there.
    fn explain_failure(&self, job: &Job<'_>, error: ProviderError) -> ProviderError {
        let name = job.name();
        let journal = job.run(CommandSpec::new(&[
            "journalctl",
            "-n",
            "20",
            "--since",
            "5 minutes ago",
            "--no-pager",
            "-u",
            &name,
        ]));
        match journal {
            Ok(output) if output.success() && !output.stdout.trim().is_empty() => {
                ProviderError::new(format!(
                    "{error}\njournalctl log for {name}:\n{}",
                    output.stdout.trim_end()
                ))
            }
            _ => error,
        }
    }
}

/// `systemctl enable|disable|mask|unmask -- NAME`, which must succeed.
fn change(job: &Job<'_>, verb: &str) -> Result<(), ProviderError> {
    let spec = CommandSpec::new(&systemctl(verb, &job.name()));
    let shown = spec.display();
    let output = job.run(spec)?;
    if output.success() {
        return Ok(());
    }
    Err(ProviderError::new(format!(
        "Could not {verb} {}: Execution of '{shown}' returned {}: {}",
        job.resource.reference(),
        output
            .status
            .map_or("a signal".to_string(), |code| code.to_string()),
        output.stdout.trim()
    )))
}

pub fn definition() -> ProviderDef {
    ProviderDef::properties("service", "systemd", Service(Systemd))
        .doc(
            "Manages systemd units with `systemctl`: `is-active` tells whether a
            service runs, `start`, `stop` and `restart` change that (after a
            `daemon-reload` when the unit file changed on disk, and an `unmask`
            when the unit is masked), and `is-enabled`, `enable`, `disable` and
            `mask` manage the start at boot. The name may leave out `.service`;
            other unit types need their suffix. It is suitable, and the
            default, where systemd is the init system.",
        )
        .command("systemctl", "systemctl")
        .confine(Confine::Feature("systemd".into()))
        .defaultfor(&[(
            "osfamily",
            &["Debian", "RedHat", "Suse", "Archlinux", "Gentoo", "CoreOS"],
        )])
        .has_features(&[
            "refreshable",
            "enableable",
            "maskable",
            "configurable_timeout",
        ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_files_keep_the_states_puppet_lists() {
        let output = "\
ssh.service                            enabled         enabled
sshd.service                           alias           -
getty@.service                         enabled         enabled
systemd-fsck@.service                  static          -
rescue.service                         static          -
apt-daily.service                      static          -
hwclock.service                        masked          enabled
procps.service                         generated       -
dbus-org.freedesktop.timedate1.service alias           -
plymouth.service                       indirect        enabled
";
        let units = parse_unit_files(output);
        let names: Vec<&str> = units.iter().map(|(u, _)| u.as_str()).collect();
        assert_eq!(
            names,
            [
                "ssh.service",
                "getty@.service",
                "systemd-fsck@.service",
                "rescue.service",
                "apt-daily.service",
                "hwclock.service",
                "plymouth.service"
            ]
        );
        let enable: Vec<&str> = units
            .iter()
            .map(|(_, s)| enable_value(s, state_is_enabled(s)))
            .collect();
        assert_eq!(
            enable,
            ["true", "true", "true", "true", "true", "false", "false"]
        );
    }

    #[test]
    fn units_give_their_active_state_with_or_without_a_bullet() {
        let output = "\
ssh.service        loaded    active   running OpenBSD Secure Shell server
● nginx.service    loaded    failed   failed  A high performance web server
rescue.service     loaded    inactive dead    Rescue Shell
";
        let active = parse_units(output);
        assert_eq!(active["ssh.service"], "active");
        assert_eq!(active["nginx.service"], "failed");
        assert_eq!(active["rescue.service"], "inactive");
    }

    #[test]
    fn show_output_is_read_as_properties() {
        let properties = show_properties("NeedDaemonReload=yes\nUnitFileState=masked\n");
        assert_eq!(properties["NeedDaemonReload"], "yes");
        assert_eq!(properties["UnitFileState"], "masked");
    }
}
