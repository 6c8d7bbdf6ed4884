//! Providers of the `exec` type, and what they share.
//!
//! `posix` runs a command string as Puppet's Ruby does: through
//! `/bin/sh -c` when it holds shell syntax, else split at blanks and
//! started directly, and an array always directly; `shell` hands the whole
//! string to `/bin/sh -c`. Both
//! run the checks (`creates`, `unless`, `onlyif`) and the command the same
//! way otherwise: same search path, environment, working directory, user,
//! group, umask and timeout, so this module holds one implementation
//! parameterized by [`Mode`].

pub mod posix;
pub mod shell;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use marionette_ral::attribute::{inspect, value_text};
use marionette_ral::{
    CommandError, CommandSpec, Context, Instance, Level, Output, PropertyHash, PropertyProvider,
    ProviderError, Resource,
};
use marionette_values::Value;

use crate::system;

/// How a command string becomes a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Split into words here; the first word is the program.
    Posix,
    /// The whole string is a script for `/bin/sh -c`.
    Shell,
}

impl Mode {
    /// The mode of the provider a resource names; `posix` is the default.
    pub fn of(resource: &Resource) -> Mode {
        if resource.provider() == Some("shell") {
            Mode::Shell
        } else {
            Mode::Posix
        }
    }
}

/// Why a command string cannot be split into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitError {
    UnclosedSingleQuote,
    UnclosedDoubleQuote,
    TrailingBackslash,
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SplitError::UnclosedSingleQuote => "a single quote is never closed",
            SplitError::UnclosedDoubleQuote => "a double quote is never closed",
            SplitError::TrailingBackslash => "it ends with a backslash that escapes nothing",
        })
    }
}

/// Splits a command line into words the way a POSIX shell would, but
/// without any expansion: blanks separate words; single quotes keep
/// everything up to the next single quote; double quotes keep everything up
/// to the next unescaped double quote, where a backslash escapes only `"`,
/// `\`, `$`, `` ` `` and a newline; outside quotes a backslash escapes any
/// character and a backslash before a newline joins lines. `$HOME`, `*`
/// and `;` are ordinary characters.
pub fn split_words(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started: `''` is an empty word, not nothing.
    let mut started = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnclosedSingleQuote),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(SplitError::UnclosedDoubleQuote),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnclosedDoubleQuote),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    started = true;
                    word.push(c);
                }
                None => return Err(SplitError::TrailingBackslash),
            },
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Ok(words)
}

/// Whether Ruby's `exec` of one string, which is how Puppet starts every
/// command given as a string, hands it to `/bin/sh -c`: when it holds a
/// character the shell interprets, an `=` in its first word (an
/// assignment), or its first word is a shell builtin or reserved word.
/// Otherwise Ruby splits it at blanks and starts the program itself.
pub fn runs_in_shell(text: &str) -> bool {
    const SPECIAL: &[char] = &[
        '*', '?', '{', '}', '[', ']', '<', '>', '(', ')', '~', '&', '|', '\\', '$', ';', '\'', '`',
        '"', '\n', '#',
    ];
    const SHELL_WORDS: &[&str] = &[
        "!", ".", ":", "break", "case", "continue", "do", "done", "elif", "else", "esac", "eval",
        "exec", "exit", "export", "fi", "for", "if", "in", "readonly", "return", "set", "shift",
        "then", "times", "trap", "unset", "until", "while",
    ];
    if text.contains(SPECIAL) {
        return true;
    }
    let first = text
        .split([' ', '\t'])
        .find(|w| !w.is_empty())
        .unwrap_or_default();
    // An `=` before any `/` of the first word makes an assignment.
    let assignment = first
        .find(['=', '/'])
        .is_some_and(|at| first.as_bytes()[at] == b'=');
    assignment || SHELL_WORDS.contains(&first)
}

/// A command string as Ruby starts it for Puppet: `/bin/sh -c` and the
/// string when it holds shell syntax, else its blank-separated words.
/// What the service providers' own commands and a file's `validate_cmd`
/// run.
pub fn command_argv(text: &str) -> Result<Vec<String>, SplitError> {
    if runs_in_shell(text) {
        return Ok(vec!["/bin/sh".into(), "-c".into(), text.to_string()]);
    }
    split_words(text)
}

/// The program Puppet checks for before running a command string: the
/// text of a leading quoted part, else everything up to the first space.
fn puppet_executable(text: &str) -> String {
    for quote in ['"', '\''] {
        if let Some(rest) = text.strip_prefix(quote)
            && let Some(end) = rest.find(quote)
            && end > 0
        {
            return rest[..end].to_string();
        }
    }
    text.split(' ').next().unwrap_or_default().to_string()
}

/// A command as the manifest gives it: a string, or the program and its
/// arguments as an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLine {
    Text(String),
    Argv(Vec<String>),
}

impl CommandLine {
    pub fn from_value(value: &Value) -> CommandLine {
        match value {
            Value::Array(items) => CommandLine::Argv(items.iter().map(value_text).collect()),
            Value::Sensitive(inner) => CommandLine::from_value(inner),
            other => CommandLine::Text(value_text(other)),
        }
    }

    /// The command as messages show it.
    pub fn shown(&self) -> String {
        match self {
            CommandLine::Text(text) => text.clone(),
            CommandLine::Argv(argv) => argv.join(" "),
        }
    }

    /// The command as Puppet's messages about its run show it: Ruby's
    /// text of the value, so an array reads `["tempest", "init", "/x"]`.
    pub fn as_puppet_shows(&self) -> String {
        match self {
            CommandLine::Text(text) => text.clone(),
            CommandLine::Argv(argv) => marionette_values::format::ruby_inspect(&Value::array(
                argv.iter()
                    .map(|word| Value::String(word.as_str().into()))
                    .collect::<Vec<_>>(),
            )),
        }
    }

    /// Whether the command is a script for `/bin/sh -c`: always with the
    /// shell provider, and with posix a string that holds shell syntax.
    pub fn is_script(&self, mode: Mode) -> bool {
        match self {
            CommandLine::Text(text) => mode == Mode::Shell || runs_in_shell(text),
            CommandLine::Argv(_) => false,
        }
    }

    /// The program and its arguments (posix), or the script (shell, and a
    /// posix string with shell syntax).
    pub fn argv(&self, mode: Mode) -> Result<Vec<String>, String> {
        match (self, mode) {
            (CommandLine::Argv(argv), Mode::Posix) => Ok(argv.clone()),
            (CommandLine::Text(text), Mode::Posix) if runs_in_shell(text) => Ok(vec![text.clone()]),
            (CommandLine::Text(text), Mode::Posix) => split_words(text).map_err(|e| e.to_string()),
            (CommandLine::Text(text), Mode::Shell) => Ok(vec![text.clone()]),
            (CommandLine::Argv(_), Mode::Shell) => Err(
                "the shell provider runs a script, which must be a single string, not an array"
                    .to_string(),
            ),
        }
    }

    /// The program a posix command runs, as Puppet finds it: the first
    /// element, or the string's leading quoted part or first word.
    pub fn program(&self) -> Option<String> {
        match self {
            CommandLine::Argv(argv) => argv.first().cloned(),
            CommandLine::Text(text) if runs_in_shell(text) => {
                Some(puppet_executable(text)).filter(|p| !p.is_empty())
            }
            CommandLine::Text(text) => split_words(text)
                .ok()
                .and_then(|words| words.into_iter().next()),
        }
    }
}

/// The commands of a check (`onlyif`, `unless`): one command, or an array
/// whose elements are each a command (a string or an argv array).
pub fn check_commands(value: &Value) -> Vec<CommandLine> {
    match value {
        Value::Array(items) => items.iter().map(CommandLine::from_value).collect(),
        other => vec![CommandLine::from_value(other)],
    }
}

/// Checks one command the way the provider will run it: splittable, not
/// empty, and, for posix without `path`, with a fully qualified program.
/// `what` names the attribute in messages; `shown` is the command or a
/// redaction.
pub fn validate_command(
    mode: Mode,
    line: &CommandLine,
    has_path: bool,
    what: &str,
    sensitive: bool,
) -> Result<(), String> {
    let shown = if sensitive {
        "[redacted]".to_string()
    } else {
        inspect(&Value::String(line.shown().into()))
    };
    let argv = line
        .argv(mode)
        .map_err(|e| format!("Cannot use {what} {shown}: {e}"))?;
    if argv.is_empty() || argv[0].is_empty() {
        return Err(format!("The {what} command is empty"));
    }
    let program = line.program().unwrap_or_default();
    if mode == Mode::Posix && !program.starts_with('/') && !has_path {
        let program = if sensitive { "[redacted]" } else { &program };
        return Err(format!(
            "'{program}' is not qualified and no path was specified. Please qualify the command or specify a path."
        ));
    }
    Ok(())
}

/// The exec providers: one implementation, two ways to start a command.
pub(crate) struct Exec {
    pub(crate) mode: Mode,
}

/// The log level the resource's `loglevel` names (notice by default).
fn log_level(resource: &Resource) -> Level {
    match resource.meta("loglevel").map(value_text).as_deref() {
        Some("debug") => Level::Debug,
        Some("info" | "verbose") => Level::Info,
        Some("warning") => Level::Warning,
        Some("err" | "alert" | "emerg" | "crit") => Level::Err,
        _ => Level::Notice,
    }
}

/// Why one run did not give an exit status.
enum RunError {
    Timeout,
    Other(ProviderError),
}

impl From<ProviderError> for RunError {
    fn from(error: ProviderError) -> RunError {
        RunError::Other(error)
    }
}

/// A numeric parameter (`timeout`, `try_sleep`) as seconds.
fn seconds(value: Option<&Value>) -> Option<f64> {
    match value? {
        Value::Float(f) => Some(*f),
        Value::Integer(i) => Some(*i as f64),
        other => value_text(other).parse().ok(),
    }
}

/// Everything needed to run this resource's commands during one provider
/// call. What can fail or warn (the account, the environment) is worked
/// out when the first command runs, so an exec that a check or
/// `refreshonly` keeps from running never complains about them.
struct Job<'a> {
    cx: &'a Context,
    resource: &'a Resource,
    mode: Mode,
    /// The resource reference, the source of every log line.
    source: String,
    /// The command, `onlyif` and `unless` hide each other: one sensitive
    /// makes all three sensitive, as any could reveal the others' secret.
    sensitive: bool,
    path: Vec<String>,
    cwd: Option<PathBuf>,
    umask: Option<u32>,
    timeout: Option<Duration>,
    env: OnceCell<Vec<(String, String)>>,
    account: OnceCell<Result<Account, ProviderError>>,
}

impl<'a> Job<'a> {
    fn new(cx: &'a Context, resource: &'a Resource, mode: Mode) -> Job<'a> {
        Job {
            cx,
            resource,
            mode,
            source: resource.path(),
            sensitive: ["command", "onlyif", "unless"]
                .iter()
                .any(|attr| resource.is_sensitive(attr)),
            path: resource.list("path").into_iter().map(value_text).collect(),
            cwd: resource.text("cwd").map(PathBuf::from),
            umask: resource
                .text("umask")
                .and_then(|mask| u32::from_str_radix(&mask, 8).ok()),
            timeout: seconds(resource.get("timeout"))
                .filter(|s| *s > 0.0)
                .and_then(|s| Duration::try_from_secs_f64(s).ok()),
            env: OnceCell::new(),
            account: OnceCell::new(),
        }
    }

    fn warning(&self, message: &str) {
        self.cx.logger.log(Level::Warning, &self.source, message);
    }

    fn debug(&self, message: &str) {
        self.cx.logger.log(Level::Debug, &self.source, message);
    }

    /// The variables set for every command, on the agent's own (its
    /// locale too: exec keeps it, unlike the commands providers run for
    /// themselves): `PATH` from `path`, then `environment` in order, later
    /// settings winning. Overrides and empty values draw a warning.
    fn environment(&self) -> Vec<(String, String)> {
        let mut settings: Vec<(String, String)> = Vec::new();
        if !self.path.is_empty() {
            settings.push(("PATH".into(), self.path.join(":")));
        }
        let secret = self.resource.is_sensitive("environment");
        for setting in self.resource.list("environment") {
            let setting = value_text(setting);
            let Some((name, value)) = environment_setting(&setting) else {
                // Validation refuses these; say so rather than fail if one
                // got through anyway.
                self.warning("Cannot understand an environment setting");
                continue;
            };
            let earlier = settings.iter().position(|(known, _)| known == name);
            let shown = if secret { "[redacted]" } else { value };
            if earlier.is_some() {
                self.warning(&format!(
                    "Overriding environment setting '{name}' with '{shown}'"
                ));
            }
            if value.is_empty() {
                self.warning(&format!("Empty environment setting '{name}'"));
            }
            match earlier {
                Some(index) => settings[index].1 = value.to_string(),
                None => settings.push((name.to_string(), value.to_string())),
            }
        }
        settings
    }

    /// The command as messages show it.
    fn shown(&self, line: &CommandLine) -> String {
        if self.sensitive {
            "[redacted]".to_string()
        } else {
            line.shown()
        }
    }

    /// The program of a posix command as an absolute path: given so, or
    /// found in `path` (never in the agent's own `PATH`).
    fn locate(&self, program: &str) -> Result<PathBuf, ProviderError> {
        let shown = if self.sensitive {
            "[redacted]"
        } else {
            program
        };
        if program.starts_with('/') {
            let path = Path::new(program);
            let metadata = path
                .metadata()
                .map_err(|_| ProviderError::new(format!("Could not find command '{shown}'")))?;
            if !metadata.is_file() {
                return Err(ProviderError::new(format!(
                    "'{shown}' is a {}, not a file",
                    file_kind(&metadata)
                )));
            }
            if !is_executable(&metadata) {
                return Err(ProviderError::new(format!("'{shown}' is not executable")));
            }
            return Ok(path.to_path_buf());
        }
        self.path
            .iter()
            .map(|dir| Path::new(dir).join(program))
            .find(|candidate| {
                candidate
                    .metadata()
                    .is_ok_and(|m| m.is_file() && is_executable(&m))
            })
            .ok_or_else(|| ProviderError::new(format!("Could not find command '{shown}'")))
    }

    /// The process to start for a command.
    fn spec(&self, line: &CommandLine) -> Result<CommandSpec, ProviderError> {
        let argv = line.argv(self.mode).map_err(ProviderError::new)?;
        let mut spec = match self.mode {
            // Puppet checks that the program of a script exists before
            // handing the script to the shell.
            Mode::Posix if line.is_script(Mode::Posix) => {
                self.locate(&line.program().unwrap_or_default())?;
                CommandSpec::shell(&argv[0]).as_ruby()
            }
            Mode::Posix => {
                let Some(program) = argv.first() else {
                    return Err(ProviderError::new("The command is empty"));
                };
                let mut full = vec![self.locate(program)?.to_string_lossy().into_owned()];
                full.extend(argv[1..].iter().cloned());
                CommandSpec::new(&full)
            }
            Mode::Shell => CommandSpec::shell(&argv[0]),
        };
        spec = spec.unchecked().combined();
        let (uid, gid) = self
            .account
            .get_or_init(|| account(self.resource))
            .clone()?;
        spec.env = self.env.get_or_init(|| self.environment()).clone();
        spec.keep_locale = true;
        spec.uid = uid;
        spec.gid = gid;
        spec.umask = self.umask;
        spec.timeout = self.timeout;
        if let Some(cwd) = &self.cwd {
            if !cwd.is_dir() {
                return Err(ProviderError::new(format!(
                    "Working directory {} does not exist!",
                    cwd.display()
                )));
            }
            spec.cwd = Some(cwd.clone());
        }
        if self.sensitive {
            spec = spec.sensitive();
        }
        Ok(spec)
    }

    /// Runs a command once and returns its output, whatever its status.
    fn run(&self, line: &CommandLine) -> Result<Output, RunError> {
        let spec = self.spec(line)?;
        let output = match self.cx.run(&spec) {
            Ok(output) => output,
            Err(CommandError::Timeout { .. }) => return Err(RunError::Timeout),
            Err(other) => return Err(RunError::Other(other.into())),
        };
        // A shell says 127 when it cannot find the program: that is an
        // error in the manifest, not an exit status to compare.
        if output.status == Some(127) {
            let text = output.stdout.trim();
            return Err(RunError::Other(ProviderError::new(if text.is_empty() {
                format!("'{}' returned 127: command not found", self.shown(line))
            } else if self.sensitive {
                "[output redacted]".to_string()
            } else {
                text.to_string()
            })));
        }
        Ok(output)
    }

    /// Whether the command should run now: the checks in Puppet's order
    /// (`refreshonly`, `creates`, `unless`, `onlyif`), stopping at the
    /// first that says no. A refresh ignores `refreshonly`.
    fn should_run(&self, refreshing: bool) -> Result<bool, ProviderError> {
        let refreshonly = self.resource.get("refreshonly") == Some(&Value::Boolean(true));
        if refreshonly && !refreshing {
            return Ok(self.skip("refreshonly"));
        }
        for path in self.resource.list("creates") {
            let path = value_text(path);
            self.debug(&format!("Checking that 'creates' path '{path}' exists"));
            if Path::new(&path).exists() {
                return Ok(self.skip("creates"));
            }
        }
        for (check, wanted_success) in [("unless", false), ("onlyif", true)] {
            let Some(value) = self.resource.get(check) else {
                continue;
            };
            for line in check_commands(value) {
                let output = match self.run(&line) {
                    Ok(output) => output,
                    Err(RunError::Timeout) => {
                        let shown = inspect(&Value::String(self.shown(&line).into()));
                        self.cx.logger.log(
                            Level::Err,
                            &self.source,
                            &format!("Check {shown} exceeded timeout"),
                        );
                        return Ok(self.skip(check));
                    }
                    Err(RunError::Other(error)) => return Err(error),
                };
                if self.sensitive {
                    self.debug("[output redacted]");
                } else {
                    for text in output.stdout.lines() {
                        self.debug(text);
                    }
                }
                if output.success() != wanted_success {
                    return Ok(self.skip(check));
                }
            }
        }
        Ok(true)
    }

    /// Logs why the command will not run; always `false`.
    fn skip(&self, check: &str) -> bool {
        let command = self
            .resource
            .get("command")
            .map(CommandLine::from_value)
            .map(|line| {
                if self.sensitive {
                    "[command redacted]".to_string()
                } else {
                    line.as_puppet_shows()
                }
            })
            .unwrap_or_default();
        self.debug(&format!(
            "'{command}' won't be executed because of failed check '{check}'"
        ));
        false
    }

    /// Runs a command up to `tries` times until it exits with an accepted
    /// status, logs its output as `logoutput` says, and fails unless the
    /// last status was accepted.
    fn execute(&self, line: &CommandLine) -> Result<(), ProviderError> {
        let accepted: Vec<String> = self
            .resource
            .list("returns")
            .into_iter()
            .map(value_text)
            .collect();
        let tries = match self.resource.get("tries") {
            Some(Value::Integer(n)) if *n > 1 => *n as u64,
            _ => 1,
        };
        let pause = seconds(self.resource.get("try_sleep"))
            .filter(|s| *s > 0.0)
            .and_then(|s| Duration::try_from_secs_f64(s).ok());
        let status_text = |output: &Output| output.status.map(|s| s.to_string());
        let mut last = None;
        for attempt in 1..=tries {
            if tries > 1 {
                self.debug(&format!("Exec try {attempt}/{tries}"));
            }
            let output = match self.run(line) {
                Ok(output) => output,
                Err(RunError::Timeout) => {
                    return Err(ProviderError::new("Command exceeded timeout"));
                }
                Err(RunError::Other(error)) => return Err(error),
            };
            let done = status_text(&output).is_some_and(|s| accepted.contains(&s));
            last = Some(output);
            if done {
                break;
            }
            if let Some(pause) = pause
                && attempt < tries
            {
                self.debug(&format!(
                    "Sleeping for {} seconds between tries",
                    pause.as_secs_f64()
                ));
                std::thread::sleep(pause);
            }
        }
        let Some(output) = last else {
            return Ok(());
        };
        let succeeded = status_text(&output).is_some_and(|s| accepted.contains(&s));
        let logoutput = self.resource.text("logoutput");
        let log = match logoutput.as_deref() {
            Some("true") => true,
            Some("false") => false,
            _ => !succeeded,
        };
        if log {
            let level = log_level(self.resource);
            if self.sensitive {
                let source = format!("{}/returns", self.source);
                self.cx.logger.log(level, &source, "[output redacted]");
            } else {
                // Puppet files the output under the `returns` property,
                // a line each as Ruby's `split` gives them: blank lines
                // at the end are not logged (designate-manage's traceback
                // ends with one).
                let source = format!("{}/returns", self.source);
                for text in output.stdout.trim_end_matches('\n').lines() {
                    self.cx.logger.log(level, &source, text);
                }
            }
        }
        if succeeded {
            return Ok(());
        }
        let command = if self.sensitive {
            "[command redacted]".to_string()
        } else {
            format!("'{}'", line.as_puppet_shows())
        };
        let expected = accepted.join(",");
        let message = match output.status {
            Some(status) => format!("{command} returned {status} instead of one of [{expected}]"),
            None => {
                format!("{command} was killed by a signal instead of returning one of [{expected}]")
            }
        };
        Err(ProviderError::new(message))
    }
}

/// `NAME=value`, with a name of letters, digits and underscores.
pub fn environment_setting(setting: &str) -> Option<(&str, &str)> {
    let (name, value) = setting.split_once('=')?;
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, value))
}

fn is_executable(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

/// The kind of a file, named as Ruby's `File.ftype` names it, since
/// Puppet's message for a program that is not a file uses those names.
fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_dir() {
        "directory"
    } else if kind.is_char_device() {
        "characterSpecial"
    } else if kind.is_block_device() {
        "blockSpecial"
    } else if kind.is_fifo() {
        "fifo"
    } else if kind.is_socket() {
        "socket"
    } else {
        "unknown"
    }
}

/// The effective user and group ids of this process.
pub fn effective_ids() -> (u32, u32) {
    // SAFETY: geteuid(2) and getegid(2) have no preconditions and cannot
    // fail.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// The uid and gid to run as; `None` leaves this process's own.
type Account = (Option<u32>, Option<u32>);

/// The uid and gid to run as, from `user` and `group`. Without `group`,
/// the user's primary group is used, as `su` would. Only root may change
/// either; another account asked for by anyone else is an error, while
/// naming oneself changes nothing.
fn account(resource: &Resource) -> Result<Account, ProviderError> {
    let root = Path::new("/");
    let user = resource.text("user");
    let group = resource.text("group");
    if user.is_none() && group.is_none() {
        return Ok((None, None));
    }
    let accounts = system::passwd(root)?;
    let mut uid = None;
    let mut primary = None;
    if let Some(user) = &user {
        let entry = accounts.iter().find(|e| e.name == *user).or_else(|| {
            let id: i64 = user.parse().ok()?;
            accounts.iter().find(|e| e.uid == id)
        });
        match (entry, user.parse::<u32>()) {
            (Some(entry), _) => {
                uid = u32::try_from(entry.uid).ok();
                primary = u32::try_from(entry.gid).ok();
            }
            (None, Ok(id)) => uid = Some(id),
            (None, Err(_)) => return Err(ProviderError::new(format!("Invalid user: {user}"))),
        }
    }
    let gid = match &group {
        Some(group) => Some(
            system::resolve_gid(root, group)
                .and_then(|gid| u32::try_from(gid).ok())
                .ok_or_else(|| ProviderError::new(format!("Invalid group: {group}")))?,
        ),
        None => primary,
    };
    if uid.is_some() && gid.is_none() {
        return Err(ProviderError::new(format!(
            "User {} has no account entry to take a group from; set group as well",
            user.unwrap_or_default()
        )));
    }
    let (euid, egid) = effective_ids();
    if euid == 0 {
        return Ok((uid, gid));
    }
    if uid.is_some_and(|u| u != euid) {
        return Err(ProviderError::new(
            "Only root can execute commands as other users",
        ));
    }
    if group.is_some() && gid.is_some_and(|g| g != egid) {
        return Err(ProviderError::new(
            "Only root can execute commands as other groups",
        ));
    }
    // Naming oneself: nothing to change (and setting the primary group
    // could differ from the group this process runs with).
    Ok((None, None))
}

impl PropertyProvider for Exec {
    /// Commands are not things on the system to list: none, like Puppet.
    fn instances(&self, _cx: &Context) -> Result<Vec<PropertyHash>, ProviderError> {
        Ok(Vec::new())
    }

    /// Nothing to read ahead: the checks run when `returns` is read.
    fn prefetch(
        &self,
        _cx: &Context,
        _instances: &mut [Instance<'_>],
    ) -> Result<(), ProviderError> {
        Ok(())
    }

    /// `returns` reads `notrun` when the command should run now, and the
    /// desired value (in sync) when a check says it should not.
    fn get(
        &self,
        cx: &Context,
        instance: &Instance<'_>,
        attr: &str,
    ) -> Result<Option<Value>, ProviderError> {
        if attr != "returns" {
            return Ok(instance.property_hash.get(attr).cloned());
        }
        let job = Job::new(cx, instance.resource, self.mode);
        Ok(if job.should_run(false)? {
            Some(Value::String("notrun".into()))
        } else {
            instance.resource.get("returns").cloned()
        })
    }

    fn set(
        &self,
        cx: &Context,
        instance: &mut Instance<'_>,
        attr: &str,
        _value: &Value,
    ) -> Result<(), ProviderError> {
        if attr != "returns" {
            return Err(ProviderError::new(format!("exec cannot change {attr}")));
        }
        let resource = instance.resource;
        let Some(command) = resource.get("command") else {
            return Err(ProviderError::new("exec has no command"));
        };
        let result = Job::new(cx, resource, self.mode).execute(&CommandLine::from_value(command));
        // Puppet's transaction logs a failed change on its own line before
        // the failed change (a command not found, one that returned
        // another status); a failed refresh is worded otherwise.
        if let Err(e) = &result {
            cx.logger.log(Level::Err, "", &e.0);
        }
        result
    }

    /// A refresh runs `refresh`, or else the command, when the checks
    /// other than `refreshonly` allow it.
    fn refresh(&self, cx: &Context, instance: &mut Instance<'_>) -> Result<(), ProviderError> {
        let resource = instance.resource;
        let job = Job::new(cx, resource, self.mode);
        if !job.should_run(true)? {
            return Ok(());
        }
        let Some(command) = resource.get("refresh").or_else(|| resource.get("command")) else {
            return Err(ProviderError::new("exec has no command"));
        };
        job.execute(&CommandLine::from_value(command))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_words(line).unwrap()
    }

    /// Puppet's messages about a run show an array command as Ruby
    /// prints the array (tempest's `tempest init`, in the trixie corpus).
    #[test]
    fn an_array_command_is_shown_as_ruby_prints_it() {
        let argv = CommandLine::Argv(vec![
            "tempest".into(),
            "init".into(),
            "/var/lib/tempest".into(),
        ]);
        assert_eq!(
            argv.as_puppet_shows(),
            r#"["tempest", "init", "/var/lib/tempest"]"#
        );
        let text = CommandLine::Text("tempest init /x".into());
        assert_eq!(text.as_puppet_shows(), "tempest init /x");
    }

    #[test]
    fn blanks_separate_words_and_runs_of_blanks_count_once() {
        assert_eq!(
            words("  /bin/echo  a\tb \n c "),
            ["/bin/echo", "a", "b", "c"]
        );
        assert!(words("   ").is_empty());
    }

    #[test]
    fn single_quotes_keep_everything_literally() {
        assert_eq!(
            words(r#"echo 'a b' '$HOME' 'x\y' 'say "hi"'"#),
            ["echo", "a b", "$HOME", r"x\y", r#"say "hi""#]
        );
    }

    #[test]
    fn double_quotes_escape_only_what_a_shell_would() {
        assert_eq!(
            words(r#"echo "a \"b\" \\ \$HOME \n""#),
            ["echo", r#"a "b" \ $HOME \n"#]
        );
    }

    #[test]
    fn backslashes_escape_outside_quotes_and_join_lines() {
        assert_eq!(
            words(
                r"echo a\ b \; c\
d"
            ),
            ["echo", "a b", ";", "cd"]
        );
    }

    #[test]
    fn quotes_join_with_neighbours_and_empty_quotes_are_a_word() {
        assert_eq!(
            words(r#"echo pre'fix'"ed" '' """#),
            ["echo", "prefixed", "", ""]
        );
    }

    #[test]
    fn nothing_is_expanded() {
        assert_eq!(
            words("echo $HOME ~ * `id` $(id); rm"),
            ["echo", "$HOME", "~", "*", "`id`", "$(id);", "rm"]
        );
    }

    #[test]
    fn unbalanced_quotes_and_a_trailing_backslash_are_errors() {
        assert_eq!(split_words("echo 'a"), Err(SplitError::UnclosedSingleQuote));
        assert_eq!(
            split_words(r#"echo "a\""#),
            Err(SplitError::UnclosedDoubleQuote)
        );
        assert_eq!(split_words(r"echo a\"), Err(SplitError::TrailingBackslash));
    }

    #[test]
    fn strings_go_to_the_shell_as_ruby_sends_them() {
        for script in [
            "grep x f | wc -l",
            "/bin/true # comment\nset -e",
            "echo 'a b'",
            "echo $HOME",
            "LANG=C locale",
            "exit 3",
            "test -f /x && echo y",
        ] {
            assert!(runs_in_shell(script), "{script}");
        }
        for direct in [
            "/bin/echo a b",
            "/usr/bin/env",
            "/usr/bin/dpkg --force=x -i f",
            "  ls -l",
        ] {
            assert!(!runs_in_shell(direct), "{direct}");
        }
        let text = |t: &str| CommandLine::Text(t.into());
        assert_eq!(
            text("/bin/true # x\necho").program().as_deref(),
            Some("/bin/true")
        );
        assert_eq!(
            text("'/opt/my tool' -x | y").program().as_deref(),
            Some("/opt/my tool")
        );
        assert_eq!(
            text("/bin/echo a b").program().as_deref(),
            Some("/bin/echo")
        );
    }

    #[test]
    fn commands_are_validated_as_the_provider_will_run_them() {
        let text = |t: &str| CommandLine::Text(t.into());
        assert!(validate_command(Mode::Posix, &text("/bin/true"), false, "command", false).is_ok());
        assert_eq!(
            validate_command(Mode::Posix, &text("foo --bar"), false, "command", false),
            Err("'foo' is not qualified and no path was specified. Please qualify the command or specify a path.".into())
        );
        assert!(validate_command(Mode::Posix, &text("foo"), true, "command", false).is_ok());
        assert!(validate_command(Mode::Shell, &text("foo | bar"), false, "command", false).is_ok());
        // A quote sends the string to the shell, which says what is wrong
        // with it when it runs, as with Puppet.
        assert!(
            validate_command(Mode::Posix, &text("/bin/echo 'a"), false, "command", false).is_ok()
        );
        assert_eq!(
            validate_command(Mode::Posix, &text("echo a | wc"), false, "command", true),
            Err("'[redacted]' is not qualified and no path was specified. Please qualify the command or specify a path.".into())
        );
        assert!(validate_command(Mode::Posix, &text("  "), true, "command", false).is_err());
        let argv = CommandLine::Argv(vec!["/bin/echo".into(), "a b".into()]);
        assert!(validate_command(Mode::Posix, &argv, false, "command", false).is_ok());
        assert!(validate_command(Mode::Shell, &argv, false, "command", false).is_err());
    }

    #[test]
    fn environment_settings_need_a_name() {
        assert_eq!(environment_setting("A_1=x=y"), Some(("A_1", "x=y")));
        assert_eq!(environment_setting("EMPTY="), Some(("EMPTY", "")));
        assert_eq!(environment_setting("=x"), None);
        assert_eq!(environment_setting("A-B=x"), None);
        assert_eq!(environment_setting("novalue"), None);
    }
}
