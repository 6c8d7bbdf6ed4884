//! `exec`: runs a command when checks say it is needed.

use std::path::Path;

use marionette_ral::attribute::{display_value, inspect, value_text};
use marionette_ral::{AttrDef, AutoKind, Resource, Titles, TypeDef};
use marionette_values::Value;

use crate::providers::exec::{
    CommandLine, Mode, check_commands, effective_ids, environment_setting, validate_command,
};

use super::value_type_name as type_name;

/// A command: a non-empty string, or a non-empty array of strings (the
/// program and its arguments).
fn check_command_value(what: &str, value: &Value) -> Result<(), String> {
    match value {
        Value::String(_) => Ok(()),
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|i| matches!(i, Value::String(_))) =>
        {
            Ok(())
        }
        other => Err(format!(
            "{what} must be a String or a non-empty Array of Strings, not {}",
            type_name(other)
        )),
    }
}

/// A check (`onlyif`, `unless`): one command, or an array of commands,
/// each a string or an argv array.
fn check_check_value(what: &str, value: &Value) -> Result<(), String> {
    match value {
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .try_for_each(|item| check_command_value(what, item)),
        other => check_command_value(what, other),
    }
}

/// Strings (or one string) that must all be absolute paths.
fn check_absolute(attr: &str, value: &Value, arrays: bool) -> Result<(), String> {
    let paths: Vec<&Value> = match value {
        Value::Array(_) if !arrays => {
            return Err(format!(
                "{attr} only accepts a single path, not an array of paths"
            ));
        }
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    if paths
        .iter()
        .all(|p| matches!(p, Value::String(s) if s.starts_with('/')))
    {
        Ok(())
    } else {
        Err(format!("{attr} must be a fully qualified path"))
    }
}

/// A number of seconds, as Puppet reads one: an integer, a float, or text
/// holding either.
fn number(value: &Value) -> Option<f64> {
    let parsed = match value {
        Value::Integer(i) => *i as f64,
        Value::Float(f) => *f,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    parsed.is_finite().then_some(parsed)
}

/// Whether this process may run commands as `user`: root may run as
/// anyone, others only as themselves.
fn may_run_as(user: &str) -> Result<(), String> {
    let (euid, _) = effective_ids();
    if euid == 0 {
        return Ok(());
    }
    let own_name = crate::system::passwd(Path::new("/"))
        .ok()
        .and_then(|accounts| accounts.into_iter().find(|a| a.uid == i64::from(euid)))
        .map(|account| account.name);
    if user.parse::<u32>() == Ok(euid) || own_name.as_deref() == Some(user) {
        Ok(())
    } else {
        Err("Only root can execute commands as other users".to_string())
    }
}

/// Checks every command of the resource as its provider will run it: the
/// native providers' rules; a module's provider (powershell's `pwsh`)
/// runs its commands its own way.
fn validate_commands(resource: &Resource) -> Result<(), String> {
    if !matches!(resource.provider(), None | Some("posix" | "shell")) {
        return Ok(());
    }
    let mode = Mode::of(resource);
    let has_path = resource.get("path").is_some();
    let secret = ["command", "onlyif", "unless"]
        .iter()
        .any(|attr| resource.is_sensitive(attr));
    for attr in ["command", "refresh"] {
        if let Some(value) = resource.get(attr) {
            let line = CommandLine::from_value(value);
            validate_command(mode, &line, has_path, attr, secret)?;
        }
    }
    for attr in ["unless", "onlyif"] {
        if let Some(value) = resource.get(attr) {
            for line in check_commands(value) {
                validate_command(mode, &line, has_path, attr, secret)?;
            }
        }
    }
    Ok(())
}

/// The files to apply first: the working directory and the program, when
/// it is given as an absolute path.
fn required_files(resource: &Resource) -> Vec<String> {
    let mut files: Vec<String> = resource.text("cwd").into_iter().collect();
    let program = resource.get("command").and_then(|value| {
        let line = CommandLine::from_value(value);
        // A shell script may not split like a posix command; its first
        // blank-separated word is still where the program is named.
        line.program()
            .or_else(|| line.shown().split_whitespace().next().map(str::to_string))
    });
    files.extend(program.filter(|p| p.starts_with('/')));
    files
}

pub fn definition() -> TypeDef {
    TypeDef::new("exec")
        .doc(
            "Runs a command on the managed system.

            An exec changes the system every time its command runs, so it must
            either be harmless to repeat or say when it is needed: `creates`
            (run only while a file is missing), `onlyif` and `unless` (run only
            when a test command succeeds, or fails), or `refreshonly` (run only
            when another resource it subscribes to changed). The tests run in
            every evaluation, including noop runs, because they decide whether
            the exec is in sync.

            The `posix` provider, the default, runs the program directly without
            a shell; choose `provider => shell` for pipes, redirections and
            other shell syntax.

            When it receives a refresh event (through `notify`, `subscribe` or
            `~>`), an exec runs `refresh` if it has one, else its command, as
            long as `creates`, `onlyif` and `unless` allow it.

            Example:

                exec { 'build the index':
                  command => '/usr/bin/makeindex /srv/docs',
                  creates => '/srv/docs/index.html',
                }

            **Autorequires:** the file of `cwd` and the program, when it is an
            absolute path, and the `user`, when the catalog manages them.",
        )
        .feature(
            "umask",
            "The provider can set the umask of the command.",
            &[],
        )
        .attr(
            AttrDef::param("command")
                .namevar()
                .doc(
                    "The command to run, by default the title. With the `posix`
                    provider it is split into a program and its arguments (quotes
                    group words, nothing is expanded), and the program must be an
                    absolute path or be found in `path`; an array gives the program
                    and its arguments as they are. With the `shell` provider it is a
                    shell script. If the command is Sensitive, neither it nor its
                    output is ever logged.",
                )
                .validate(|_, value| check_command_value("command", value)),
        )
        .attr(
            AttrDef::property("returns")
                .doc(
                    "The exit status, or an array of exit statuses, that count as
                    success (by default `0`). Any other status fails the resource. Reading this
                    property runs the checks: it is `notrun` when the command is due,
                    and the command runs to bring it in sync.",
                )
                .default_value(Value::Array(vec![Value::String("0".into())].into()))
                .array_matching(marionette_ral::ArrayMatching::All)
                .validate(|_, value| {
                    let text = value_text(value);
                    let digits = text.strip_prefix('-').unwrap_or(&text);
                    let integer = matches!(value, Value::Integer(_))
                        || (matches!(value, Value::String(_))
                            && !digits.is_empty()
                            && digits.chars().all(|c| c.is_ascii_digit()));
                    if integer {
                        Ok(())
                    } else {
                        Err(format!(
                            "Invalid exit status {}: returns takes integers",
                            inspect(value)
                        ))
                    }
                })
                .munge(|_, value| Ok(Value::String(value_text(&value).into())))
                // The command is due exactly when the checks said `notrun`.
                .insync(|_, current, _| !matches!(current, Value::String(s) if &**s == "notrun"))
                // Puppet keeps a property's desired values as a list, and
                // shows them so even when one was given.
                .format(|value| match value {
                    Value::String(s) if &**s == "notrun" => display_value(value),
                    Value::Array(_) => display_value(value),
                    other => display_value(&Value::Array(vec![other.clone()].into())),
                })
                .change_message(|_, _, _| "executed successfully".to_string()),
        )
        .attr(
            crate::types::directory_list("path", "Directories to search for the program, as an array or a
                    colon-separated string. They also become the command's `PATH`.
                    Without it, a `posix` command must name its program by absolute
                    path.")
        )
        .attr(
            AttrDef::param("user")
                .doc(
                    "The account to run the command (and the checks) as, by name or
                    uid. Only root can run commands as another account. The group
                    is the account's primary group unless `group` says otherwise;
                    its supplementary groups are those of a login (initgroups).
                    `HOME`, `USER` and `LOGNAME` are not set for the account: give
                    them in `environment` when the command needs them.",
                )
                .validate(|_, value| match value {
                    Value::String(_) | Value::Integer(_) => may_run_as(&value_text(value)),
                    other => Err(format!(
                        "user must be a name or a uid, not {}",
                        type_name(other)
                    )),
                }),
        )
        .attr(
            AttrDef::param("group")
                .doc("The group to run the command (and the checks) as, by name or gid.")
                .validate(|_, value| match value {
                    Value::String(_) | Value::Integer(_) => Ok(()),
                    other => Err(format!(
                        "group must be a name or a gid, not {}",
                        type_name(other)
                    )),
                }),
        )
        .attr(
            AttrDef::param("cwd")
                .doc(
                    "The directory to run the command (and the checks) in. It must
                    exist when they run.",
                )
                .validate(|_, value| check_absolute("cwd", value, false)),
        )
        .attr(
            AttrDef::param("logoutput")
                .doc(
                    "Whether the command's output (standard output and error, in
                    the order written) is logged, one line per message, at the
                    resource's `loglevel`: always (`true`), never (`false`), or only
                    when the exit status is not one of `returns` (`on_failure`, the
                    default).",
                )
                .values(&["true", "false", "on_failure"])
                .default_value(Value::String("on_failure".into())),
        )
        .attr(
            AttrDef::param("refresh")
                .doc(
                    "A command to run instead of `command` when the exec receives a
                    refresh event. It runs like `command`: same provider, path,
                    account, `returns`, `tries` and `logoutput`.",
                )
                .validate(|_, value| check_command_value("refresh", value)),
        )
        .attr(
            AttrDef::param("environment")
                .doc(
                    "Extra variables for the command and the checks, each as
                    `NAME=value`; one string or an array. A `PATH` here replaces the
                    one made from `path`. The commands inherit the agent's
                    environment (its locale included) except `HOME`, `USER` and
                    `LOGNAME`, which only this attribute can set.",
                )
                .validate(|_, value| {
                    let settings: Vec<&Value> = match value {
                        Value::Array(items) => items.iter().collect(),
                        other => vec![other],
                    };
                    for setting in settings {
                        let Value::String(text) = setting else {
                            return Err(format!(
                                "Invalid environment setting {}: it must be a string",
                                inspect(setting)
                            ));
                        };
                        if environment_setting(text).is_none() {
                            return Err(format!("Invalid environment setting '{text}'"));
                        }
                    }
                    Ok(())
                }),
        )
        .attr(
            AttrDef::param("umask")
                .doc("The umask of the command, as an octal string such as `'0022'`.")
                .validate(|_, value| {
                    let valid = match value {
                        Value::String(text) => {
                            let digits = text.strip_prefix('0').unwrap_or(text);
                            (1..=4).contains(&digits.len())
                                && digits.chars().all(|c| ('0'..='7').contains(&c))
                        }
                        _ => false,
                    };
                    if valid {
                        Ok(())
                    } else {
                        Err(format!(
                            "The umask specification is invalid: {}",
                            inspect(value)
                        ))
                    }
                })
                .requires_features(&["umask"]),
        )
        .attr(
            AttrDef::param("timeout")
                .doc(
                    "How many seconds one run of the command (or of a check) may
                    take; fractions are allowed. A command that runs longer is killed
                    with every process it started, and fails. The default is 300;
                    `0` means no limit.",
                )
                .default_value(Value::Integer(300))
                .validate(|_, value| {
                    let first = match value {
                        Value::Array(items) => items.first().unwrap_or(&Value::Undef),
                        other => other,
                    };
                    number(first)
                        .map(|_| ())
                        .ok_or_else(|| "The timeout must be a number.".to_string())
                })
                // A negative limit means none, like zero.
                .munge(|_, value| {
                    let first = match &value {
                        Value::Array(items) => items.first().cloned().unwrap_or(Value::Undef),
                        other => other.clone(),
                    };
                    Ok(Value::Float(number(&first).unwrap_or(0.0).max(0.0)))
                }),
        )
        .attr(
            AttrDef::param("tries")
                .doc(
                    "How many times to run the command until its exit status is one
                    of `returns`, by default once. `timeout` applies to each try.",
                )
                .default_value(Value::Integer(1))
                .validate(|_, value| {
                    let count = match value {
                        Value::Integer(n) => *n,
                        Value::String(text)
                            if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) =>
                        {
                            text.parse().unwrap_or(i64::MAX)
                        }
                        _ => return Err("Tries must be an integer".to_string()),
                    };
                    if count < 1 {
                        Err("Tries must be an integer >= 1".to_string())
                    } else {
                        Ok(())
                    }
                })
                .munge(|_, value| {
                    Ok(match &value {
                        Value::String(text) => Value::Integer(text.parse().unwrap_or(i64::MAX)),
                        _ => value,
                    })
                }),
        )
        .attr(
            AttrDef::param("try_sleep")
                .doc("How many seconds to wait between two tries (none by default); fractions are allowed.")
                .default_value(Value::Integer(0))
                .validate(|_, value| match number(value) {
                    None => Err("try_sleep must be a number".to_string()),
                    Some(seconds) if seconds < 0.0 => {
                        Err("try_sleep cannot be a negative number".to_string())
                    }
                    Some(_) => Ok(()),
                })
                .munge(|_, value| Ok(Value::Float(number(&value).unwrap_or(0.0)))),
        )
        .attr(
            AttrDef::param("refreshonly")
                .doc(
                    "Whether the command runs only when the exec receives a refresh
                    event, from a resource it subscribes to or that notifies it.
                    Such an exec is always in sync otherwise.",
                )
                .values(&["true", "false"])
                .munge(|hooked, value| {
                    let value = hooked.default_munge(value)?;
                    Ok(Value::Boolean(value_text(&value) == "true"))
                }),
        )
        .attr(
            AttrDef::param("creates")
                .doc(
                    "A file, or an array of files, that the command makes: while any
                    of them exists, the command does not run. Absolute paths.",
                )
                .validate(|_, value| check_absolute("creates", value, true)),
        )
        .attr(
            AttrDef::param("unless")
                .doc(
                    "A test command: the exec runs only if it exits with a status
                    other than 0. An array holds several tests (each a string or an
                    argv array), and a single success among them stops the exec. The
                    tests run like the command: same provider, path, environment,
                    directory and account.",
                )
                .validate(|_, value| check_check_value("unless", value)),
        )
        .attr(
            AttrDef::param("onlyif")
                .doc(
                    "A test command: the exec runs only if it exits with status 0. An
                    array holds several tests (each a string or an argv array), which
                    must all succeed. The tests run like the command: same provider,
                    path, environment, directory and account.",
                )
                .validate(|_, value| check_check_value("onlyif", value)),
        )
        .validate(validate_commands)
        .refreshable()
        .auto(
            AutoKind::Require,
            "file",
            Titles::Computed(std::sync::Arc::new(required_files)),
        )
        .autorequire("user", |resource| {
            resource
                .text("user")
                .filter(|user| !user.chars().all(|c| c.is_ascii_digit()))
                .into_iter()
                .collect()
        })
}
