//! `service`: whether a daemon runs now, and whether it starts at boot.

use marionette_ral::attribute::{inspect, value_text};
use marionette_ral::{AttrDef, TypeDef};
use marionette_values::{Regex, Value};

use super::value_type_name as type_name;

/// A command given by the user: a string (run by `/bin/sh -c`) or a
/// non-empty array of strings (the program and its arguments).
fn check_command(attr: &str, value: &Value) -> Result<(), String> {
    match value {
        Value::String(text) if !text.trim().is_empty() => Ok(()),
        Value::String(_) => Err(format!("The {attr} command is empty")),
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|i| matches!(i, Value::String(_))) =>
        {
            Ok(())
        }
        other => Err(format!(
            "{attr} must be a String or a non-empty Array of Strings, not {}",
            type_name(other)
        )),
    }
}

/// An attribute Puppet has for platforms marionette does not manage yet
/// (Windows, HP-UX, Solaris, BSD flags): accepted by the compiler, refused
/// here when it is given a value, so a manifest never believes it took
/// effect.
fn unsupported(attr: AttrDef, what: &str) -> AttrDef {
    let name = attr.name.clone();
    let what = what.to_string();
    attr.validate(move |_, _| Err(format!("{name} ({what}) is not supported yet")))
}

/// A command attribute (`start`, `stop`, `status`, `restart`).
fn command(name: &'static str, doc: &str) -> AttrDef {
    AttrDef::param(name)
        .doc(doc)
        .validate(move |_, value| check_command(name, value))
}

pub fn definition() -> TypeDef {
    TypeDef::new("service")
        .doc(
            "Keeps a service (a daemon) running or stopped, and, where the
            provider can, makes it start at boot or not.

            `ensure` is about now, `enable` about the next boot; each is left
            alone when not given. How a service is started, stopped and
            queried depends on the provider: `systemd` asks systemctl,
            `debian` calls the init script in `/etc/init.d`, and `base` runs
            the commands given in `start`, `stop` and `status`, or looks for
            the process itself. Commands given as strings run through
            `/bin/sh -c`, so they may use shell syntax (`daemon &`); an array
            is a program and its arguments, run without a shell.

            When it receives a refresh event (through `notify`, `subscribe`
            or `~>`), a running service is restarted: with `restart` when it
            is given, else with the provider's own restart (systemd, and init
            scripts with `hasrestart => true`), else by stopping and starting
            it. A stopped service stays stopped.

            Example:

                service { 'ssh':
                  ensure    => running,
                  enable    => true,
                  subscribe => File['/etc/ssh/sshd_config'],
                }",
        )
        .feature(
            "refreshable",
            "The provider can restart the service.",
            &["restart"],
        )
        .feature(
            "enableable",
            "The provider can make the service start at boot, or not.",
            &["disable", "enable", "enabled?"],
        )
        .feature(
            "delayed_startable",
            "The provider can delay the start of the service at boot.",
            &["delayed_start"],
        )
        .feature(
            "manual_startable",
            "The provider can leave the service to be started by hand.",
            &["manual_start"],
        )
        .feature("controllable", "The provider reads a control variable.", &[])
        .feature("flaggable", "The provider can pass flags to the service.", &[])
        .feature(
            "maskable",
            "The provider can mask the service, so nothing can start it.",
            &["mask"],
        )
        .feature(
            "configurable_timeout",
            "The provider limits how long each command may take.",
            &[],
        )
        .feature(
            "manages_logon_credentials",
            "The provider can choose the account the service runs as.",
            &[],
        )
        .ensurable()
        .ensure_values(|_| {
            AttrDef::property("ensure")
                .doc(
                    "Whether the service runs now: `running` (or `true`) or
                    `stopped` (or `false`). Left alone when not given.",
                )
                .values(&["stopped", "running"])
                .alias_value("false", "stopped")
                .alias_value("true", "running")
                // A service started in this run is not restarted as well.
                .invalidate_refreshes(&["running"])
        })
        .attr(
            AttrDef::property("enable")
                .doc(
                    "Whether the service starts at boot: `true` or `false`, or
                    `mask` with the `systemd` provider, which also keeps anyone
                    from starting it by hand. Left alone when not given. With
                    `debian`, `true` runs `update-rc.d NAME defaults` when the
                    script has no runlevel links yet and `update-rc.d NAME
                    enable` otherwise, and `false` runs `update-rc.d NAME
                    disable`.",
                )
                .values(&["true", "false", "mask"])
                .validate(|hooked, value| match value_text(value).as_str() {
                    "manual" | "delayed" => Err(format!(
                        "enable => {} (a Windows start mode) is not supported yet",
                        value_text(value)
                    )),
                    _ => hooked.default_validate(value),
                })
                .requires_features(&["enableable"]),
        )
        .attr(
            AttrDef::param("binary")
                .doc(
                    "The daemon's program, for the `base` provider when there is
                    no `start` command: it is split into words like a shell would
                    split it (nothing is expanded) and run directly, and it must
                    put itself in the background. It is also the default
                    `pattern`.",
                )
                .validate(|_, value| match value {
                    Value::String(text) if !text.trim().is_empty() => Ok(()),
                    other => Err(format!(
                        "binary must be a non-empty String, not {}",
                        inspect(other)
                    )),
                }),
        )
        .attr(unsupported(
            AttrDef::param("control").doc("The control variable of HP-UX services. Not supported yet."),
            "HP-UX control variables",
        ))
        .attr(unsupported(
            AttrDef::property("flags")
                .doc("Flags passed to the service (BSD rc). Not supported yet.")
                .requires_features(&["flaggable"]),
            "BSD rc flags",
        ))
        .attr(
            AttrDef::param("hasrestart")
                .doc(
                    "Whether the init script has a working `restart` action. With
                    `true`, the `debian` provider restarts through it; otherwise a
                    restart is a stop and a start. `systemd` always restarts with
                    systemctl. A `restart` command takes precedence.",
                )
                .values(&["true", "false"]),
        )
        .attr(
            AttrDef::param("hasstatus")
                .doc(
                    "Whether the init script has a working `status` action, which
                    must exit with 0 when the service runs and with anything else
                    when it does not. With `false`, the `debian` provider looks
                    for `pattern` among the running processes instead. A `status`
                    command takes precedence. The default is `true`.",
                )
                .values(&["true", "false"])
                .default_value(Value::String("true".into())),
        )
        .attr(unsupported(
            AttrDef::property("logonaccount")
                .doc("The account a Windows service runs as. Not supported yet.")
                .requires_features(&["manages_logon_credentials"]),
            "Windows logon accounts",
        ))
        .attr(unsupported(
            AttrDef::param("logonpassword")
                .doc("The password of `logonaccount`. Not supported yet.")
                .sensitive()
                .requires_features(&["manages_logon_credentials"]),
            "Windows logon accounts",
        ))
        .attr(unsupported(
            AttrDef::param("manifest").doc("A Solaris SMF manifest to import. Not supported yet."),
            "Solaris SMF manifests",
        ))
        .attr(
            AttrDef::param("name")
                .namevar()
                .doc(
                    "The name of the service: the systemd unit (`.service` may be
                    left out) or the init script. Defaults to the title.",
                )
                // The init-script providers run `PATH/NAME`: a name with a
                // `/` or that is `..` would run a script from elsewhere.
                .validate(|_, value| {
                    let name = value_text(value);
                    if name.contains('/') || name == ".." || name == "." {
                        Err(format!(
                            "Invalid service name {name:?}: a service name cannot contain '/' or be '.' or '..'"
                        ))
                    } else {
                        Ok(())
                    }
                }),
        )
        .attr(
            crate::types::directory_list("path", "Where the `debian` provider looks for init scripts, as an array
                    or a colon-separated string; `/etc/init.d` by default.")
        )
        .attr(
            AttrDef::param("pattern")
                .doc(
                    "A regular expression (Ruby syntax) that finds the service's
                    processes by their command line (the arguments joined by
                    blanks, as in `/proc/PID/cmdline`). It is how the `base`
                    provider tells whether the service runs when there is no
                    `status` command, and which processes it sends SIGTERM to when
                    there is no `stop` command; `debian` uses it with
                    `hasstatus => false`. Defaults to `binary`, else the name,
                    matched as plain text (their special characters escaped).
                    The agent's own process and its parents never match.",
                )
                .validate(|_, value| match value {
                    Value::String(text) => Regex::new(text)
                        .map(|_| ())
                        .map_err(|e| format!("Invalid pattern {}: {e}", inspect(value))),
                    other => Err(format!("pattern must be a String, not {}", inspect(other))),
                })
                .default_fn(|resource| {
                    // The binary is a command line, not a pattern: its
                    // special characters are escaped so it matches itself.
                    let found = resource
                        .text("binary")
                        .map(|binary| escape_regex(&binary))
                        .unwrap_or_else(|| escape_regex(&resource.name()));
                    Some(Value::String(found.into()))
                }),
        )
        .attr(command(
            "restart",
            "A command that restarts the service, used on refresh instead of the
            provider's own restart or a stop and a start.",
        ))
        .attr(command(
            "start",
            "A command that starts the service, instead of the provider's own.
            A string runs through `/bin/sh -c`; a daemon it leaves in the
            background (`/usr/sbin/mydaemon &`) does not hold up the run.",
        ))
        .attr(command(
            "status",
            "A command that tells whether the service runs: exit status 0 for
            running, anything else for stopped. It replaces the provider's own
            check.",
        ))
        .attr(command(
            "stop",
            "A command that stops the service, instead of the provider's own.",
        ))
        .attr(
            AttrDef::param("timeout")
                .doc(
                    "How many seconds each command run for the service (start,
                    stop, status, restart, enable) may take; one that runs longer
                    is killed with the processes it started, and the change fails.
                    A positive integer. Without it, commands take as long as they
                    need.",
                )
                .validate(|_, value| match timeout_seconds(value) {
                    Some(_) => Ok(()),
                    None => Err(format!(
                        "{} is not a positive integer: the timeout parameter must be specified as a positive integer",
                        inspect(value)
                    )),
                })
                .munge(|_, value| {
                    Ok(timeout_seconds(&value).map_or(value, Value::Integer))
                })
                .requires_features(&["configurable_timeout"]),
        )
        .validate(|resource| {
            if resource.get("logonpassword").is_some() && resource.get("logonaccount").is_none() {
                return Err("logonpassword needs logonaccount".to_string());
            }
            Ok(())
        })
        .refreshable()
}

/// A timeout as a positive number of seconds: an integer, or text holding
/// one.
fn timeout_seconds(value: &Value) -> Option<i64> {
    let seconds = match value {
        Value::Integer(n) => *n,
        Value::String(text) => text.trim().parse().ok()?,
        _ => return None,
    };
    (seconds >= 1).then_some(seconds)
}

/// A text as a regular expression that matches exactly that text.
pub fn escape_regex(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}-/#".contains(c) || c == ' ' {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escaped_text_matches_itself_only() {
        let regex = Regex::new(&escape_regex("/usr/sbin/my.daemon -f (x)")).unwrap();
        assert!(regex.is_match("/bin/sh /usr/sbin/my.daemon -f (x) --more"));
        assert!(!regex.is_match("/usr/sbin/myXdaemon -f (x)"));
    }

    #[test]
    fn timeouts_are_positive_integers() {
        assert_eq!(timeout_seconds(&Value::Integer(5)), Some(5));
        assert_eq!(timeout_seconds(&Value::String("30".into())), Some(30));
        assert_eq!(timeout_seconds(&Value::Integer(0)), None);
        assert_eq!(timeout_seconds(&Value::String("soon".into())), None);
    }
}
